"""Renders conversations with a model's own chat template, as a server applies it.

    python3 chat_template.py TOKENIZER_CONFIG_JSON CONVERSATIONS_JSON OUT_JSON

CONVERSATIONS_JSON is an array of conversations, each an array of {"role", "content"}; OUT_JSON
gets one string each: the template of TOKENIZER_CONFIG_JSON ("chat_template", with its
"bos_token" and "eos_token") rendered with add_generation_prompt, in the Jinja2 environment
Hugging Face transformers renders it in (transformers/utils/chat_template_utils.py:
ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, a tojson filter and
raise_exception), which is what vLLM and SGLang apply. For agent_template_test.cpp.
"""

import json
import sys

from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment


def raise_exception(message):
    raise TemplateError(message)


def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent,
                      separators=separators, sort_keys=sort_keys)


def token_text(token):
    if isinstance(token, dict):
        return token.get("content", "")
    return token or ""


def main():
    config_path, conversations_path, out_path = sys.argv[1:4]
    with open(config_path, encoding="utf-8") as file:
        config = json.load(file)
    with open(conversations_path, encoding="utf-8") as file:
        conversations = json.load(file)
    environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    environment.filters["tojson"] = tojson
    environment.globals["raise_exception"] = raise_exception
    template = environment.from_string(config["chat_template"])
    rendered = [
        template.render(messages=messages, add_generation_prompt=True,
                        bos_token=token_text(config.get("bos_token")),
                        eos_token=token_text(config.get("eos_token")))
        for messages in conversations
    ]
    with open(out_path, "w", encoding="utf-8") as file:
        json.dump(rendered, file)


if __name__ == "__main__":
    main()
