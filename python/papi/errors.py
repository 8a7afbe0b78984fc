"""PapiError: a PAPI error code with PAPI_strerror and the whole PAPI_strerror_detail."""

from ._library import lib


class PapiError(Exception):
    """A libpapi call failed. code: the PAPI error code (negative); function: the call;
    message: PAPI_strerror(code); detail: PAPI_strerror_detail() right after the call,
    whole (it names the event, the file, the reason)."""

    def __init__(self, code, function, detail=None):
        if detail is None:  # read first: the reason belongs to the call that failed
            raw = lib.PAPI_strerror_detail()
            detail = raw.decode("utf-8", "replace") if raw else ""
        self.code = code
        self.function = function
        self.message = (lib.PAPI_strerror(code) or b"unknown error").decode("utf-8", "replace")
        self.detail = detail
        text = "%s: %s (PAPI code %d)" % (function, self.message, code)
        if detail:
            text += ": " + detail
        super().__init__(text)


def check(code, function, what=None):
    """Raise PapiError when code is not PAPI_OK; what (an event name ...) is added to the
    detail when the library's reason does not already name it."""
    if code >= 0:
        return code
    err = PapiError(code, function)
    if what and what not in err.detail:
        err = PapiError(code, function, ("%s: %s" % (what, err.detail)).rstrip(": "))
    raise err
