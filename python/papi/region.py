"""region("name"): the region API (PAPI_hl_region_begin/end) as a context manager.

The events come from PAPI_EVENTS as for C and Fortran programs; the report is written
at exit into papi_hl_output/ (papi_hl_report(5))."""

from ._args import name_bytes
from ._library import lib
from .errors import check


class region:
    """with papi.region("solve"): ...  counts the block as region "solve"; read() is
    PAPI_hl_read (a midway value of the instance)."""

    def __init__(self, name):
        self._raw = name_bytes(name, "region name")
        self.name = name

    def __enter__(self):
        check(lib.PAPI_hl_region_begin(self._raw), "PAPI_hl_region_begin", self.name)
        return self

    def read(self):
        check(lib.PAPI_hl_read(self._raw), "PAPI_hl_read", self.name)

    def __exit__(self, *exc):
        check(lib.PAPI_hl_region_end(self._raw), "PAPI_hl_region_end", self.name)
        return False

    def __call__(self, func):
        """As a decorator: every call of func is one instance of the region."""
        import functools

        @functools.wraps(func)
        def counted(*args, **kwargs):
            with region(self.name):
                return func(*args, **kwargs)
        return counted
