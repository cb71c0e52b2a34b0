"""The speech server image, pinned by digest, with SageMaker bidirectional streaming on."""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_ecr as ecr
from aws_cdk import aws_ecr_assets as ecr_assets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from constructs import Construct

from ..config import BIDI_LABEL, Settings
from ..image_context import image_from_root
from ..instance_types import image_flavor
from .handler_provider import HandlerProvider

# What container/Dockerfile copies: the server, the core it runs on, the flavors' pinned requirements.
IMAGE_COPIES = ["container/requirements-*.txt", "container/kokoro_server", "core/kokoro_core"]
ECR_ACTIONS = [
    "ecr:BatchGetImage",
    "ecr:GetDownloadUrlForLayer",
    "ecr:BatchCheckLayerAvailability",
    "ecr:InitiateLayerUpload",
    "ecr:UploadLayerPart",
    "ecr:CompleteLayerUpload",
    "ecr:PutImage",
]


@dataclass(frozen=True)
class ImageSettings:
    """What the image needs: the instance type picks the flavor; a given image skips the build."""

    instance_type: str
    log_retention: logs.RetentionDays
    image_uri: str | None = None
    image_reference: dict[str, str] | None = None  # repository, tag or digest, account, region of image_uri

    @classmethod
    def of(cls, settings: Settings) -> ImageSettings:
        return cls(settings.instance_type, settings.log_retention, settings.image_uri, settings.image_reference)


class BidiImage(Construct):
    """Builds (or takes) the image and yields ``image_uri``: repository@sha256 with the label."""

    def __init__(self, scope: Construct, id: str, *, settings: ImageSettings) -> None:
        super().__init__(scope, id)
        reference = settings.image_reference
        if reference is None:
            # The GPU flavor carries CUDA; a CPU instance type gets the small CPU flavor and the fastest
            # CPU runtime. Same server package, same contract.
            asset = image_from_root(
                self,
                "Asset",
                dockerfile="container/Dockerfile",
                copies=IMAGE_COPIES,
                platform=ecr_assets.Platform.LINUX_AMD64,
                build_args={"FLAVOR": image_flavor(settings.instance_type)},
            )
            self.repository: ecr.IRepository = asset.repository
            image = {"ImageTag": asset.image_tag}
        else:
            partition = "aws-cn" if ".amazonaws.com.cn/" in str(settings.image_uri) else "aws"
            self.repository = ecr.Repository.from_repository_attributes(
                self,
                "Repository",
                repository_name=reference["repository"],
                repository_arn=(
                    f"arn:{partition}:ecr:{reference['region']}:{reference['account']}:repository/{reference['repository']}"
                ),
            )
            image = {"ImageTag": reference["tag"]} if "tag" in reference else {"ImageDigest": reference["digest"]}
            image["RegistryId"] = reference["account"]

        provider = HandlerProvider(
            self,
            "Labeller",
            handler="handlers.bidi_image.on_event",
            description="Pins the speech server image by digest with bidirectional streaming enabled",
            timeout=cdk.Duration.minutes(5),
            memory_size=256,
            log_retention=settings.log_retention,
        )
        provider.role.add_to_policy(
            iam.PolicyStatement(actions=ECR_ACTIONS, resources=[self.repository.repository_arn])
        )
        resource = cdk.CustomResource(
            self,
            "Pinned",
            service_token=provider.service_token,
            resource_type="Custom::KokoroBidiImage",
            properties={
                "RepositoryName": self.repository.repository_name,
                "RepositoryUri": self.repository.repository_uri,
                "Label": BIDI_LABEL,
                **image,
            },
        )
        self.image_uri = resource.get_att_string("ImageUri")
        self.image_digest = resource.get_att_string("ImageDigest")
