"""Test support for the scripts that validate bench's files against a JSON Schema with
python3-jsonschema (tests/export/check_llmd_report.py, tests/results/check_results_schema.py):
the module, or exit 77 (skipped, with the reason) without it; and the failures they collect.
"""
import sys

try:
    import jsonschema  # noqa: F401  (re-exported for the scripts)
except ImportError:
    print("SKIPPED: python3-jsonschema is not installed (scripts/setup --test installs it)")
    sys.exit(77)

FAILURES = []


def fail(message):
    """Records a failure and says it at once; the script ends with exit_status()."""
    FAILURES.append(message)
    print("FAIL: " + message)


def exit_status():
    """1 when anything failed (with how many), else 0."""
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    return 0
