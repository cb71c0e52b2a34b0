"""The command-line options shared by every command that reaches an endpoint: ``kokoro-stream say`` and
the commands other packages add (``bench``, ``capacity``, ``cache push``). Apart from ``cli``, so that a package adding
commands imports them without loading the program, and with it every installed plugin."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from .endpoint import Endpoint

# The options of every command that can reach an endpoint (`say`, `bench`).
RegionOption = Annotated[str | None, typer.Option(help="AWS region of the endpoint.")]
EndpointUrlOption = Annotated[
    str | None, typer.Option(help="With --endpoint: the runtime's URL instead of the region's (kokoro-stream emulate).")
]
CaFileOption = Annotated[
    Path | None, typer.Option(help="With --endpoint-url: the certificate authority to trust (its own CA).")
]
# A server to talk to, or none: the command then starts one here on the embedded model (`demo`, `capacity`).
ServerUrlOption = Annotated[
    str | None, typer.Option(help="A running server (http://host:port); default: start one here.")
]


def endpoint_from_options(name: str, region: str | None, endpoint_url: str | None, ca_file: Path | None) -> Endpoint:
    """The endpoint the options name; the region defaults to the AWS configuration's."""
    from .endpoint import Endpoint, configured_region

    if (region := configured_region(region)) is None:
        raise typer.BadParameter("no region configured; pass --region", param_hint="--region")
    return Endpoint(name, region, endpoint_url, ca_file)
