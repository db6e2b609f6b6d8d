#!/usr/bin/env bash
# Every reference to the documentation resolves:
#  - a comment or message in the code that cites a document by path and section title, as in
#    <path>, "Title" / <path>, 'Title' / <path> ("Title") / <path>, "A" and "B", names a file under
#    docs/ that exists and a heading (any level) whose title is the cited one or begins with it
#    (whole words: a heading "Real prose: the checker alone" answers "Real prose");
#  - a mention of a docs/ file in any of those files, in README.md or in docs/*.md names a file
#    that exists;
#  - a Markdown link to a .md file in README.md and docs/*.md resolves (relative to the file that
#    links), and so does its #fragment when it has one (GitHub's heading ids);
#  - a section cited in README.md or docs/*.md by <docs path>, "Title" exists too.
# Usage: doc_citations_test.sh [REPO_ROOT]   (default: two levels above this script)
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
exec python3 - "$root" <<'PY'
import os, re, sys

root = sys.argv[1]
self_path = os.path.normpath(os.path.join(root, "tests", "docs", "doc_citations_test.sh"))

CODE_DIRS = ["src", "tools", "tests", "scripts", "bench", "demo", "web", "clients", "cmake", "eval", "ops"]
CODE_FILES = ["Makefile", "CMakeLists.txt", "CMakePresets.json"]
CODE_EXT = {".cpp", ".cc", ".c", ".h", ".hpp", ".py", ".sh", ".js", ".mjs", ".cjs", ".ts", ".cmake",
            ".txt", ".toml", ".yml", ".yaml", ".html", ".css", ""}
SKIP_DIRS = {"node_modules", ".git", "build", ".deps"}

def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None

def code_files():
    for d in CODE_DIRS:
        top = os.path.join(root, d)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [x for x in dirnames if x not in SKIP_DIRS]
            for name in filenames:
                if os.path.splitext(name)[1] in CODE_EXT:
                    yield os.path.join(dirpath, name)
    for name in CODE_FILES:
        p = os.path.join(root, name)
        if os.path.isfile(p):
            yield p

def doc_files():
    yield os.path.join(root, "README.md")
    ddir = os.path.join(root, "docs")
    for name in sorted(os.listdir(ddir)):
        if name.endswith(".md"):
            yield os.path.join(ddir, name)

def norm_title(t):
    t = t.replace("`", "").replace("*", "")
    return re.sub(r"\s+", " ", t).strip().lower()

def slug(title):
    # GitHub's heading ids: lower case, punctuation dropped (letters, digits, '-', '_' and spaces
    # kept), each space a '-'.
    s = title.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

heading_cache = {}
def headings(path):
    """(normalised titles, ids) of the Markdown file's headings outside fenced code."""
    if path in heading_cache:
        return heading_cache[path]
    titles, ids, seen = [], set(), {}
    text = read(path) or ""
    fence = None
    for line in text.splitlines():
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            mark = m.group(1)[0]
            if fence is None:
                fence = mark
            elif fence == mark:
                fence = None
            continue
        if fence is not None:
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            raw = m.group(2)
            titles.append(norm_title(raw))
            base = slug(raw.replace("`", ""))
            n = seen.get(base, 0)
            seen[base] = n + 1
            ids.add(base if n == 0 else f"{base}-{n}")
    heading_cache[path] = (titles, ids)
    return heading_cache[path]

def has_section(path, title):
    want = norm_title(title)
    for h in headings(path)[0]:
        if h == want or (h.startswith(want) and not h[len(want)].isalnum()):
            return True
    return False

def lineno(text, pos):
    return text.count("\n", 0, pos) + 1

# Text after a citation, joined over comment continuation lines (// # * markers dropped) and
# with C string escapes undone, so a title wrapped over two comment lines reads as one.
CONT = re.compile(r"[ \t]*\n[ \t]*(?:(?://+|#+|\*(?!/)|--)[ \t]?)?[ \t]*")
def tail(text, end):
    s = text[end:end + 400].replace('\\"', '"')
    return CONT.sub(" ", s)

# One quoted title after the file name: "..." or '...' (an apostrophe inside a word does not end it).
TITLE = r"""(?:"([^"\n]{1,120})"|'((?:[^'\n]|'(?=[A-Za-z])){1,120})')"""
FIRST = re.compile(r"^\)?(?:,\s*|\s+)\(?" + TITLE)
MORE = re.compile(r"^\s*(?:,|and|or)\s*(?:and\s+)?" + TITLE)

def cited_titles(after):
    out = []
    m = FIRST.match(after)
    while m:
        out.append(m.group(1) if m.group(1) is not None else m.group(2))
        after = after[m.end():]
        m = MORE.match(after)
    return out

problems = []
def problem(path, text, pos, what):
    problems.append(f"{os.path.relpath(path, root)}:{lineno(text, pos)}: {what}")

DOC_PATH = re.compile(r"(?<![\w./-])docs/([\w.-]+\.md)\b")
# In docs/*.md a sibling is cited without the folder: ANCHORS.md, "Checking" / [X.md](X.md), "Title".
SIBLING = re.compile(r"(?<![\w./-])([A-Z][A-Z_]*\.md)\b")
checked_sections = 0

def check_citations(path, text, pattern=DOC_PATH):
    global checked_sections
    for m in pattern.finditer(text):
        target = os.path.join(root, "docs", m.group(1))
        if not os.path.isfile(target):
            if pattern is DOC_PATH:  # a bare README.md in docs/ is the repository's
                problem(path, text, m.start(), f"docs/{m.group(1)} does not exist")
            continue
        for title in cited_titles(tail(text, m.end())):
            checked_sections += 1
            if not has_section(target, title):
                problem(path, text, m.start(), f'docs/{m.group(1)} has no heading "{title}"')

for path in code_files():
    if os.path.normpath(path) == self_path:
        continue
    text = read(path)
    if text is not None:
        check_citations(path, text)

LINK = re.compile(r"\]\(([^)\s]+?\.md)(#[^)\s]*)?\)|\]\((#[^)\s]+)\)")
links = 0
for path in doc_files():
    text = read(path)
    if text is None:
        problem(path, "", 0, "cannot be read")
        continue
    check_citations(path, text)
    here = os.path.dirname(path)
    if os.path.basename(here) == "docs":
        check_citations(path, text, SIBLING)
    for m in LINK.finditer(text):
        links += 1
        if m.group(3):  # a link into the same file
            target, frag = path, m.group(3)
        else:
            target, frag = os.path.normpath(os.path.join(here, m.group(1))), m.group(2)
            if not os.path.isfile(target):
                problem(path, text, m.start(), f"link ({m.group(1)}) names no file")
                continue
        if frag and frag[1:] not in headings(target)[1]:
            problem(path, text, m.start(), f"link {frag} is no heading of {os.path.relpath(target, root)}")

if problems:
    print(f"{len(problems)} documentation reference(s) do not resolve:")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print(f"ok - {checked_sections} cited sections and {links} Markdown links resolve")
PY
