"""The optional agent stack: AgentCore Runtime, its arm64 image, and a role scoped to one model and one endpoint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cfnlint.api import lint_file
from syrupy.extensions.json import JSONSnapshotExtension

from stacks.agent_stack import runtime_name
from stacks.config import SettingsError, settings_from_context

from .conftest import Assembly, cdk_json_context, synthesize
from .test_templates import masked

STACK = "KokoroAgent"
PROFILE = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
BEDROCK_ACTIONS = ["bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"]
# What AWS documents for a runtime's execution role, besides the image, the logs and the model.
XRAY_ACTIONS = {"xray:PutTraceSegments", "xray:PutTelemetryRecords", "xray:GetSamplingRules", "xray:GetSamplingTargets"}
RUNTIME_ROLE_ACTIONS = {
    *XRAY_ACTIONS,
    "cloudwatch:PutMetricData",
    "logs:DescribeLogGroups",
    "bedrock-agentcore:GetWorkloadAccessToken",
    "bedrock-agentcore:GetWorkloadAccessTokenForJWT",
}


@pytest.fixture(scope="module")
def with_agent(tmp_path_factory: pytest.TempPathFactory) -> Assembly:
    return synthesize(tmp_path_factory.mktemp("agent"), agent="true", agent_model_id=PROFILE)


def joined(value: Any) -> str:
    """An ARN built with Fn::Join, with its references written as <Ref>."""
    if isinstance(value, str):
        return value
    parts = value["Fn::Join"][1]
    return "".join(part if isinstance(part, str) else f"<{part.get('Ref', 'token')}>" for part in parts)


def role_statements(assembly: Assembly) -> list[dict[str, Any]]:
    (policy,) = assembly.resources(STACK, "AWS::IAM::Policy").values()
    return policy["Properties"]["PolicyDocument"]["Statement"]


def actions(statement: dict[str, Any]) -> list[str]:
    return statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]


def test_no_agent_stack_unless_asked(assembly: Assembly) -> None:
    assert STACK not in assembly.templates


def test_agent_without_a_model_id_stops_synth_saying_what_to_set() -> None:
    with pytest.raises(
        SettingsError, match="agent=true needs the Bedrock model the agent thinks with: -c agent_model_id="
    ):
        settings_from_context({**cdk_json_context(), "agent": "true"})
    with pytest.raises(SettingsError, match="agent_model_id='Claude 4' is invalid"):
        settings_from_context({**cdk_json_context(), "agent": "true", "agent_model_id": "Claude 4"})


def test_snapshot(with_agent: Assembly, snapshot) -> None:
    assert masked(with_agent.templates[STACK]) == snapshot.use_extension(JSONSnapshotExtension)


def test_role_is_trusted_by_agentcore_in_this_account_only(with_agent: Assembly) -> None:
    (role,) = with_agent.resources(STACK, "AWS::IAM::Role").values()
    (trust,) = role["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "bedrock-agentcore.amazonaws.com"}
    assert trust["Condition"]["StringEquals"] == {"aws:SourceAccount": "123456789012"}
    assert (
        joined(trust["Condition"]["ArnLike"]["aws:SourceArn"]) == "arn:aws:bedrock-agentcore:us-east-1:123456789012:*"
    )


def test_role_invokes_only_the_configured_model_through_its_profile(with_agent: Assembly) -> None:
    bedrock = [s for s in role_statements(with_agent) if any(a.startswith("bedrock:") for a in actions(s))]
    profile = f"arn:aws:bedrock:us-east-1:123456789012:inference-profile/{PROFILE}"
    assert [(actions(s), joined(s["Resource"])) for s in bedrock] == [
        (BEDROCK_ACTIONS, profile),
        (BEDROCK_ACTIONS, "arn:aws:bedrock:*::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0"),
    ]
    condition = bedrock[1]["Condition"]["StringEquals"]["bedrock:InferenceProfileArn"]
    assert joined(condition) == profile


def test_a_foundation_model_id_is_allowed_in_this_region_only(tmp_path: Path) -> None:
    assembly = synthesize(tmp_path, agent="true", agent_model_id="amazon.nova-lite-v1:0")
    bedrock = [s for s in role_statements(assembly) if any(a.startswith("bedrock:") for a in actions(s))]
    assert [(actions(s), joined(s["Resource"])) for s in bedrock] == [
        (BEDROCK_ACTIONS, "arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-lite-v1:0")
    ]
    assert all("Condition" not in s for s in bedrock)


def test_role_invokes_only_this_projects_endpoint_pulls_its_image_and_writes_its_logs(with_agent: Assembly) -> None:
    (role,) = with_agent.resources(STACK, "AWS::IAM::Role").values()
    (managed,) = role["Properties"]["ManagedPolicyArns"]
    # The endpoint stack's invoke policy, which allows the three invoke actions on that endpoint only.
    reference = json.dumps(managed)
    (policy_id,) = with_agent.resources("KokoroEndpoint", "AWS::IAM::ManagedPolicy")
    outputs = with_agent.templates["KokoroEndpoint"]["Outputs"]
    exported = [name for name, output in outputs.items() if output["Value"] == {"Ref": policy_id}]
    assert any(name in reference for name in exported), reference
    others = [s for s in role_statements(with_agent) if not any(a.startswith("bedrock:") for a in actions(s))]
    granted = {action for statement in others for action in actions(statement)}
    assert granted == {
        "ecr:BatchCheckLayerAvailability",
        "ecr:BatchGetImage",
        "ecr:GetDownloadUrlForLayer",
        "ecr:GetAuthorizationToken",
        "logs:CreateLogGroup",
        "logs:CreateLogStream",
        "logs:DescribeLogStreams",
        "logs:PutLogEvents",
        *RUNTIME_ROLE_ACTIONS,
    }
    for statement in others:
        resources = (
            [joined(r) for r in statement["Resource"]]
            if isinstance(statement["Resource"], list)
            else [joined(statement["Resource"])]
        )
        granted_here = set(actions(statement))
        if "ecr:BatchGetImage" in granted_here:
            repository = "cdk-hnb659fds-container-assets-123456789012-us-east-1"  # the image asset's repository
            assert resources == [f"arn:aws:ecr:us-east-1:123456789012:repository/{repository}"]
        elif "logs:PutLogEvents" in granted_here:
            assert all(":log-group:/aws/bedrock-agentcore/runtimes/" in r for r in resources)
        elif granted_here == {"cloudwatch:PutMetricData"}:
            assert resources == ["*"]
            assert statement["Condition"] == {"StringEquals": {"cloudwatch:namespace": "bedrock-agentcore"}}
        elif granted_here == {"logs:DescribeLogGroups"}:
            assert resources == ["arn:aws:logs:us-east-1:123456789012:log-group:*"]
        elif "bedrock-agentcore:GetWorkloadAccessToken" in granted_here:
            directory = "arn:aws:bedrock-agentcore:us-east-1:123456789012:workload-identity-directory/default"
            assert resources == [directory, f"{directory}/workload-identity/kokoro_tts_agent-*"]
            assert "bedrock-agentcore:GetWorkloadAccessTokenForUserId" not in granted_here
        else:  # actions without resource-level permissions
            assert granted_here <= {"ecr:GetAuthorizationToken", *XRAY_ACTIONS} and resources == ["*"]


def test_runtime_name_starts_with_a_letter_whatever_the_endpoint_name() -> None:
    assert runtime_name("kokoro-tts") == "kokoro_tts_agent"
    assert runtime_name("9-lives") == "agent_9_lives_agent"
    assert runtime_name("x" * 63) == "x" * 48


def test_runtime_runs_the_arm64_image_with_the_model_and_endpoint_it_needs(with_agent: Assembly) -> None:
    _, runtime = with_agent.one(STACK, "AWS::BedrockAgentCore::Runtime")
    props = runtime["Properties"]
    assert props["AgentRuntimeName"] == "kokoro_tts_agent"
    assert props["EnvironmentVariables"]["KOKORO_AGENT_MODEL_ID"] == PROFILE
    assert props["EnvironmentVariables"]["KOKORO_AGENT_TTS_ENDPOINT"] == "kokoro-tts"
    assert (props["ProtocolConfiguration"], props["NetworkConfiguration"]) == ("HTTP", {"NetworkMode": "PUBLIC"})
    role_id = next(iter(with_agent.resources(STACK, "AWS::IAM::Role")))
    assert props["RoleArn"] == {"Fn::GetAtt": [role_id, "Arn"]}
    policy_id = next(iter(with_agent.resources(STACK, "AWS::IAM::Policy")))
    assert policy_id in runtime["DependsOn"]  # the role's permissions exist before the runtime checks them
    manifest = json.loads((with_agent.outdir / f"{STACK}.assets.json").read_text())
    (image,) = manifest["dockerImages"].values()
    assert image["source"]["platform"] == "linux/arm64" and image["source"]["dockerFile"] == "agent/Dockerfile"
    tag = props["AgentRuntimeArtifact"]["ContainerConfiguration"]["ContainerUri"]["Fn::Sub"].rsplit(":", 1)[1]
    assert tag in manifest["dockerImages"]
    staged = with_agent.outdir / image["source"]["directory"]
    assert sorted(p.name for p in staged.iterdir() if p.name != ".dockerignore") == ["agent", "client", "core"]
    assert sorted(p.name for p in (staged / "core").iterdir()) == ["kokoro_core"]
    assert (staged / "agent" / "kokoro_agent" / "app.py").is_file()
    _, endpoint = with_agent.one(STACK, "AWS::BedrockAgentCore::RuntimeEndpoint")
    assert endpoint["Properties"]["AgentRuntimeId"] == {"Fn::GetAtt": ["Runtime", "AgentRuntimeId"]}


def test_agent_stack_is_nag_and_cfn_lint_clean(with_agent: Assembly) -> None:
    violations = [v for report in with_agent.validation_report["pluginReports"] for v in report.get("violations", [])]
    assert violations == []
    errors = [m for m in lint_file(with_agent.outdir / f"{STACK}.template.json") if m.rule.id.startswith(("E", "W"))]
    assert errors == []
