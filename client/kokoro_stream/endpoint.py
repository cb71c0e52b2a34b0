"""A SageMaker endpoint as the clients reach it: its name and region, and, for a runtime other than the
region's (``kokoro-stream emulate``), that runtime's URL and the certificate authority it is signed by."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .sagemaker_bidi_transport import SageMakerBidiTransport
from .sagemaker_post_transport import SageMakerPostTransport


def configured_region(region: str | None) -> str | None:
    """``region``, or else the one the standard AWS configuration names (None when it names none)."""
    if region is not None:
        return region
    import boto3

    name: str | None = boto3.session.Session().region_name
    return name


@dataclass(frozen=True)
class Endpoint:
    name: str
    region: str
    url: str | None = None  # default: the region's runtime (HTTP/2 on 8443 for the bidirectional stream)
    ca_file: Path | None = None  # default: the system's trust store

    def bidi(self) -> SageMakerBidiTransport:
        """A session over one bidirectional stream."""
        return SageMakerBidiTransport(self.name, self.region, endpoint_uri=self.url, ca_file=self.ca_file)

    def runtime_client(self) -> Any:
        """A boto3 ``sagemaker-runtime`` client for this endpoint's runtime."""
        import boto3

        verify = str(self.ca_file) if self.ca_file is not None else None
        return boto3.client("sagemaker-runtime", region_name=self.region, endpoint_url=self.url, verify=verify)

    def post(self) -> SageMakerPostTransport:
        """The protocol over one streamed POST per sentence."""
        return SageMakerPostTransport(self.name, self.runtime_client())
