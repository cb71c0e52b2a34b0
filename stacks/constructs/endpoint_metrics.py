"""The endpoint's CloudWatch metrics, defined once for the alarms, the dashboard and the scaling policies.

Three sources: SageMaker's invocation metrics (``AWS/SageMaker``), the instance metrics it publishes
with the execution role (``/aws/sagemaker/Endpoints``), and the speech server's own EMF metrics
(``kokoro_core.metrics``), which carry the endpoint name as their only dimension.
"""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cw

from kokoro_core import metrics as server_metrics

from .. import instance_types

MINUTE = cdk.Duration.minutes(1)
INVOCATIONS_NAMESPACE = "AWS/SageMaker"
INSTANCE_NAMESPACE = "/aws/sagemaker/Endpoints"
CONCURRENCY = "ConcurrentRequestsPerModel"


@dataclass(frozen=True)
class EndpointMetrics:
    endpoint_name: str
    variant_name: str
    instance_type: str

    def _sagemaker(self, namespace: str, name: str, statistic: str, label: str, period: cdk.Duration) -> cw.Metric:
        return cw.Metric(
            namespace=namespace,
            metric_name=name,
            dimensions_map={"EndpointName": self.endpoint_name, "VariantName": self.variant_name},
            statistic=statistic,
            period=period,
            label=label,
        )

    def _server(self, name: str, statistic: str, label: str, period: cdk.Duration = MINUTE) -> cw.Metric:
        return cw.Metric(
            namespace=server_metrics.NAMESPACE,
            metric_name=name,
            dimensions_map={server_metrics.DIMENSION: self.endpoint_name},
            statistic=statistic,
            period=period,
            label=label,
        )

    # Invocations, as SageMaker sees them.
    def concurrency(self, statistic: str = "Average", period: cdk.Duration = MINUTE) -> cw.Metric:
        """Requests in flight per instance; one bidi session counts as one request for its whole life."""
        label = f"concurrent requests per instance ({statistic.lower()})"
        return self._sagemaker(INVOCATIONS_NAMESPACE, CONCURRENCY, statistic, label, period)

    def invocations(self) -> cw.Metric:
        return self._sagemaker(INVOCATIONS_NAMESPACE, "Invocations", "Sum", "invocations", MINUTE)

    def errors(self, code: str, period: cdk.Duration = MINUTE) -> cw.Metric:
        return self._sagemaker(INVOCATIONS_NAMESPACE, f"Invocation{code}Errors", "Sum", f"{code} errors", period)

    def model_latency(self, statistic: str) -> cw.Metric:
        """Microseconds, as SageMaker reports it."""
        return self._sagemaker(
            INVOCATIONS_NAMESPACE, "ModelLatency", statistic, f"model latency {statistic} (µs)", MINUTE
        )

    def overhead_latency(self, statistic: str) -> cw.Metric:
        label = f"overhead latency {statistic} (µs)"
        return self._sagemaker(INVOCATIONS_NAMESPACE, "OverheadLatency", statistic, label, MINUTE)

    # Instances.
    def cpu_percent(self) -> cw.MathExpression:
        """CPUUtilization adds up every core (0-400 % on 4 vCPUs); divided here to 0-100 % of the instance."""
        count = instance_types.vcpus(self.instance_type)
        raw = self._sagemaker(INSTANCE_NAMESPACE, "CPUUtilization", "Average", "cpu", MINUTE)
        return cw.MathExpression(
            expression=f"cpu / {count}", using_metrics={"cpu": raw}, label="CPU % of all vCPUs", period=MINUTE
        )

    def gpu_percent(self) -> cw.Metric:
        # GPUUtilization adds up every GPU; the server runs on one, so the sum is that GPU's utilization.
        return self._sagemaker(INSTANCE_NAMESPACE, "GPUUtilization", "Average", "GPU %", MINUTE)

    def gpu_memory_percent(self) -> cw.Metric:
        return self._sagemaker(INSTANCE_NAMESPACE, "GPUMemoryUtilization", "Average", "GPU memory %", MINUTE)

    def memory_percent(self) -> cw.Metric:
        return self._sagemaker(INSTANCE_NAMESPACE, "MemoryUtilization", "Average", "memory %", MINUTE)

    # The speech server's own metrics.
    def time_to_first_audio(self, statistic: str, period: cdk.Duration = MINUTE) -> cw.Metric:
        return self._server(server_metrics.TIME_TO_FIRST_AUDIO, statistic, f"server TTFA {statistic} (ms)", period)

    def real_time_factor(self) -> cw.Metric:
        return self._server(server_metrics.REAL_TIME_FACTOR, "p95", "real-time factor p95")

    def queue_depth(self, statistic: str = "Average") -> cw.Metric:
        """Synthesis jobs waiting for a worker, per instance (averaged over instances and samples)."""
        return self._server(server_metrics.QUEUE_DEPTH, statistic, f"queued jobs per instance ({statistic.lower()})")

    def sessions(self) -> cw.Metric:
        return self._server(server_metrics.SESSIONS, "Average", "bidi sessions per instance")

    def batch_size(self) -> cw.Metric:
        """Chunks per model call in the busiest load sample (each sample is its calls' mean; an idle one
        reports 0, which an average over samples would mix in)."""
        return self._server(server_metrics.BATCH_SIZE, "Maximum", "chunks per model call (busiest sample)")

    def on_gpu(self) -> cw.Metric:
        """1 where every ready server ran on the GPU over the period; below 1, one fell back to the CPU."""
        return self._server(server_metrics.ON_GPU, "Minimum", "servers on the GPU (minimum)")

    def ready_instances(self) -> cw.MathExpression:
        """Servers that are ready: each sends LOAD_SAMPLES_PER_MINUTE load samples a minute while it is."""
        samples = self._server(server_metrics.QUEUE_DEPTH, "SampleCount", "load samples")
        return cw.MathExpression(
            expression=f"FILL(samples, 0) / {server_metrics.LOAD_SAMPLES_PER_MINUTE}",
            using_metrics={"samples": samples},
            label="ready instances",
            period=MINUTE,
        )
