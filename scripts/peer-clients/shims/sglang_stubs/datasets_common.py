# Shim for the check: metrics.py imports these names from here.
from sglang.benchmark.backends.base_client import RequestFuncOutput
DatasetRow = dict
