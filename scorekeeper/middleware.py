"""Response headers Django has no setting for."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# Browser features this site may use: sharing a match's link (the share sheet, or the
# clipboard where sharing is not offered; static/js/share.js) and keeping the screen on
# while a scorer's scorepad is open (a screen wake lock; static/js/wakelock.js). Every
# other powerful feature is denied to the site and to anything it might frame. Only
# names every Chromium recognises: an unknown one costs a console warning on every page
# (tests/browser/test_csp.py listens). So no "web-share", unknown where Chromium has no
# share sheet (Linux): its default allowlist is already 'self'. Nor "bluetooth", which
# Chromium does not read. Vibration, used on the scorepad, is not policy-controlled.
# https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Permissions-Policy
PERMISSIONS_POLICY = {
    "accelerometer": "()",
    "autoplay": "()",
    "camera": "()",
    "clipboard-read": "()",
    "clipboard-write": "(self)",
    "display-capture": "()",
    "encrypted-media": "()",
    "fullscreen": "()",
    "geolocation": "()",
    "gyroscope": "()",
    "hid": "()",
    "idle-detection": "()",
    "magnetometer": "()",
    "microphone": "()",
    "midi": "()",
    "payment": "()",
    "picture-in-picture": "()",
    "publickey-credentials-get": "()",
    "screen-wake-lock": "(self)",
    "serial": "()",
    "usb": "()",
    "xr-spatial-tracking": "()",
}
PERMISSIONS_POLICY_HEADER = ", ".join(
    f"{name}={allow}" for name, allow in PERMISSIONS_POLICY.items())


class PermissionsPolicyMiddleware:
    """Send PERMISSIONS_POLICY with every response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY_HEADER)
        return response
