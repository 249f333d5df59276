"""QR codes as standalone SVG files (with their xmlns, so that an <img> shows them): one place
for every link the app shows as a code (a match's links, a concours's public page, its
co-organiser link, a table's phone link)."""

import io

import segno
from django.http import HttpResponse


def qr_response(
    address: str, *, scale: int = 6, cache: str = "private, max-age=3600"
) -> HttpResponse:
    """`address` as an SVG QR code response. One fixed mask (any is standard): segno scores all
    eight otherwise, 25 ms a code, and the desk's board asks one per table."""
    buffer = io.BytesIO()
    segno.make(address, error="m", mask=0, micro=False).save(
        buffer, kind="svg", scale=scale, dark="#111", light="#fff", xmldecl=False
    )
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = cache
    return response
