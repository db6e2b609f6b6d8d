#!/usr/bin/env python3
"""Function sizes under src/: no function body longer than LIMIT lines.

A function is a brace block opened at namespace or class level whose head (the text since the
previous ';', '{' or '}') ends in ')' optionally followed by qualifiers (const, noexcept,
override, a trailing return type, a member-initialiser list). Lambdas and nested blocks count
toward the function that holds them. Comments, string and character literals are blanked first.

Usage: function_size_test.py SRC_DIR [LIMIT]  (LIMIT defaults to 80)
"""
import pathlib
import re
import sys

HEAD = re.compile(r"\)\s*(const|noexcept|override|final|mutable|&|&&|->[^{;]*|:[^;{]*|\s)*$", re.S)
NOT_FUNCTION = re.compile(r"^\s*(namespace|struct|class|union|enum|extern)\b|=\s*$|^\s*(if|for|while|switch|catch)\b")


def blank(text):
    """Comments and literals replaced by spaces, newlines kept (raw strings included)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i-1].isalnum() or text[i-1] == '_')):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                end = n if end < 0 else end + len(m.group(1)) + 2
                out.append(re.sub(r"[^\n]", " ", text[i:end])); i = end
            else:
                out.append(c); i += 1
        elif c in "\"'":
            if c == "'" and i > 0 and text[i-1].isdigit() and text[i+1:i+2].isalnum():  # digit separator 1'000
                out.append(" "); i += 1; continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i)); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(path):
    text = blank(path.read_text(encoding="utf-8"))
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    stack = []  # per open brace: (is_function_body, start_line, name)
    head_start = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[head_start:i]
            in_function = any(f for f, _, _ in stack)
            is_fn = not in_function and bool(HEAD.search(head)) and not NOT_FUNCTION.search(head)
            name = " ".join(head.split())[-90:]
            stack.append((is_fn, line, name))
            head_start = i + 1
        elif c == "}":
            if stack:
                is_fn, start, name = stack.pop()
                if is_fn:
                    yield name, start, line - start + 1
            head_start = i + 1
        elif c == ";":
            if not any(f for f, _, _ in stack):
                head_start = i + 1


def main():
    src = pathlib.Path(sys.argv[1])
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 80
    long = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".cpp", ".h"):
            continue
        for name, start, length in functions(path):
            if length > limit:
                long.append((length, f"{path.relative_to(src)}:{start}", name))
    for length, where, name in sorted(long, reverse=True):
        print(f"{length:4d} lines  {where}  {name}")
    if long:
        print(f"{len(long)} function(s) over {limit} lines")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
