# Shim for the check (SGLang's own utils.py holds these two among many).
def remove_prefix(text: str, prefix: str) -> str:
    return text[len(prefix) :] if text.startswith(prefix) else text

def parse_custom_headers(header_list):
    return dict(h.split("=", 1) for h in header_list)
