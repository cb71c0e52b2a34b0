"""One CloudWatch dashboard: load, latency, errors, resources and instance count, with the alarms on top."""

from __future__ import annotations

from aws_cdk import aws_cloudwatch as cw
from constructs import Construct

from .. import instance_types
from .endpoint_metrics import EndpointMetrics

WIDTH = 8
HEIGHT = 6


def graph(title: str, left: list[cw.IMetric], right: list[cw.IMetric] | None = None) -> cw.GraphWidget:
    return cw.GraphWidget(title=title, left=left, right=right or [], width=WIDTH, height=HEIGHT)


class EndpointDashboard(Construct):
    def __init__(self, scope: Construct, id: str, *, endpoint_metrics: EndpointMetrics, alarms: list[cw.Alarm]) -> None:
        super().__init__(scope, id)
        m = endpoint_metrics
        resources = [m.cpu_percent(), m.memory_percent()]
        if instance_types.has_gpu(m.instance_type):
            resources += [m.gpu_percent(), m.gpu_memory_percent()]
        self.dashboard = cw.Dashboard(
            self,
            "Dashboard",
            dashboard_name=f"{m.endpoint_name}-speech",
            widgets=[
                [cw.AlarmStatusWidget(title="Alarms", alarms=alarms, width=3 * WIDTH, height=3)],
                [
                    graph(
                        "Concurrency (scaling metric), bidi sessions and batching",
                        [m.concurrency("Average"), m.concurrency("Maximum"), m.sessions()],
                        [m.batch_size()],
                    ),
                    graph("Server time to first audio (ms)", [m.time_to_first_audio(s) for s in ("p50", "p95", "p99")]),
                    graph(
                        "SageMaker latency (µs)",
                        [m.model_latency("p50"), m.model_latency("p95"), m.overhead_latency("p95")],
                    ),
                ],
                [
                    graph("Invocations and errors", [m.invocations()], [m.errors("4XX"), m.errors("5XX")]),
                    graph("Instance resources (%)", resources),
                    graph(
                        "Ready instances and queue",
                        [m.ready_instances()],
                        [m.queue_depth("Average"), m.queue_depth("Maximum"), m.real_time_factor()],
                    ),
                ],
            ],
        )
