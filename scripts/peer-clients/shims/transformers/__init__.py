# Shim for the check: SGLang's metrics.py imports this name for a type annotation only.
class PreTrainedTokenizerBase:
    pass
