#!/usr/bin/env python3
"""Keeps the command output shown in README.md and docs/*.md equal to what htpscope prints.

A fenced block preceded by a marker line is generated, never written by hand:

    <!-- htpscope-doc-run: ARGS -->          the block is "$ htpscope ARGS" and its output
    <!-- htpscope-doc-run OPTS: ARGS -->     the same with options (below)
    <!-- htpscope-doc-file: PATH -->         the block is the file PATH (repository-relative)

ARGS are shell words (quote as in a shell; no pipes or redirections). The command runs from
the repository root (or `cwd=DIR`) with NO_COLOR set and stdout/stderr to pipes. OPTS are
space-separated key=value words:

    cwd=DIR        run from DIR (repository-relative), so paths in the output stay short
    exit=N         expected exit status (default 0); any other status is an error
    stream=stderr  show stderr instead of stdout
    lines=A-B      show output lines A..B only (1-based, inclusive; "A-" to the end); the
                   omitted lines are counted in a "[… N more lines]" line
    prompt=no      omit the "$ htpscope ARGS" line

Only what must vary between machines is normalised: the repository's absolute path becomes
relative, and the `--version` string of the binary becomes "htpscope VERSION".

Commands that read ../shared/corpus form the "corpus" set; the others the "bundled" set.

    doc_examples.py check  --binary build/htpscope [--set bundled|corpus|all]
    doc_examples.py update --binary build/htpscope [--set ...]

`check` exits 1 with a unified diff for each block that differs, 77 when the set needs the
corpus and it is absent (nothing checked), else 0. `update` rewrites the blocks in place.
"""

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))
RUN_MARKER = re.compile(r"^<!-- htpscope-doc-run(?P<opts>(?: [a-z]+=\S*)*): (?P<args>.*) -->$")
FILE_MARKER = re.compile(r"^<!-- htpscope-doc-file: (?P<path>\S+) -->$")
OPTION_NAMES = {"cwd", "exit", "stream", "lines", "prompt"}
SKIP = 77


class DocError(Exception):
    pass


def doc_files():
    docs = os.path.join(ROOT, "docs")
    names = ["README.md"] + sorted(
        os.path.join("docs", n) for n in os.listdir(docs) if n.endswith(".md"))
    return [n for n in names if os.path.isfile(os.path.join(ROOT, n))]


def parse_options(text, where):
    opts = {}
    for word in text.split():
        key, _, value = word.partition("=")
        if key not in OPTION_NAMES:
            raise DocError(f"{where}: unknown option {key!r} (known: {sorted(OPTION_NAMES)})")
        opts[key] = value
    return opts


def find_blocks(path):
    """Yields (marker line index, fence start index, fence end index, marker match)."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if not line.startswith("<!-- htpscope-doc-"):
            continue
        where = f"{path}:{i + 1}"
        match = RUN_MARKER.match(line) or FILE_MARKER.match(line)
        if not match:
            raise DocError(f"{where}: malformed marker {line!r}")
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            raise DocError(f"{where}: the marker must be followed by a fenced block")
        end = i + 2
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end >= len(lines):
            raise DocError(f"{where}: the fenced block after the marker is not closed")
        yield i, i + 1, end, match


def is_corpus(match):
    text = match.group(0)
    return "../shared/corpus" in text or "shared/corpus" in match.groupdict().get("opts", "")


def version_string(binary):
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def select_lines(out_lines, spec, where):
    if not spec:
        return out_lines
    m = re.fullmatch(r"(\d+)-(\d*)", spec)
    if not m:
        raise DocError(f"{where}: lines={spec!r} is not A-B")
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) else len(out_lines)
    if first < 1 or last < first or last > len(out_lines):
        raise DocError(f"{where}: lines={spec} outside the output's {len(out_lines)} lines")
    shown = out_lines[first - 1:last]
    if first > 1:
        shown = [f"[… {first - 1} lines before]"] + shown
    if last < len(out_lines):
        shown.append(f"[… {len(out_lines) - last} more lines]")
    return shown


def render_run(match, binary, version, where):
    opts = parse_options(match.group("opts"), where)
    args = shlex.split(match.group("args"))
    cwd = os.path.join(ROOT, opts.get("cwd", "."))
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    env.pop("HTPSCOPE_PROGRESS", None)
    proc = subprocess.run([os.path.abspath(binary)] + args, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    expected = int(opts.get("exit", "0"))
    if proc.returncode != expected:
        raise DocError(f"{where}: `htpscope {match.group('args')}` exited {proc.returncode}, "
                       f"the doc expects {expected}\nstderr:\n{proc.stderr}")
    text = proc.stderr if opts.get("stream", "stdout") == "stderr" else proc.stdout
    for prefix in (os.path.realpath(cwd) + os.sep, os.path.realpath(ROOT) + os.sep):
        text = text.replace(prefix, "")
    if version:
        text = text.replace(version, "htpscope VERSION")
    out_lines = text.rstrip("\n").split("\n") if text.strip() else []
    shown = select_lines([l.rstrip() for l in out_lines], opts.get("lines", ""), where)
    if opts.get("prompt", "yes") != "no":
        shown = ["$ htpscope " + match.group("args")] + shown
    return shown


def render_file(match, where):
    path = os.path.join(ROOT, match.group("path"))
    if not os.path.isfile(path):
        raise DocError(f"{where}: {match.group('path')} does not exist")
    return open(path, encoding="utf-8").read().rstrip("\n").split("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["check", "update", "list"])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "htpscope"))
    parser.add_argument("--set", choices=["bundled", "corpus", "all"], default="all")
    a = parser.parse_args()

    if a.set == "corpus" and not os.path.isdir(CORPUS):
        print(f"skipped: {CORPUS} is absent, the corpus examples are not checked")
        return SKIP
    version = version_string(a.binary) if a.mode != "list" else ""
    differing, checked, skipped = 0, 0, 0
    try:
        for doc in doc_files():
            lines = open(os.path.join(ROOT, doc), encoding="utf-8").read().split("\n")
            replacements = []
            for marker, start, end, match in find_blocks(doc):
                where = f"{doc}:{marker + 1}"
                corpus = "args" in match.groupdict() and is_corpus(match)
                if (a.set == "bundled" and corpus) or (a.set == "corpus" and not corpus):
                    continue
                if corpus and not os.path.isdir(CORPUS):
                    skipped += 1
                    continue
                if a.mode == "list":
                    print(f"{where}: {match.group(0)}")
                    continue
                if "args" in match.groupdict():
                    body = render_run(match, a.binary, version, where)
                else:
                    body = render_file(match, where)
                checked += 1
                old = lines[start + 1:end]
                if old != body:
                    replacements.append((start + 1, end, body))
                    if a.mode == "check":
                        differing += 1
                        diff = difflib.unified_diff(old, body, f"{doc} (as written)",
                                                    "htpscope (as it prints now)", lineterm="",
                                                    n=2)
                        print(f"{where}: the block differs from the binary's output")
                        print("\n".join(diff))
            if a.mode == "update" and replacements:
                for begin, end, body in reversed(replacements):
                    lines[begin:end] = body
                with open(os.path.join(ROOT, doc), "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
                print(f"updated {len(replacements)} block(s) in {doc}")
    except DocError as e:
        print(f"doc_examples: {e}", file=sys.stderr)
        return 2
    if a.mode == "check":
        note = f", {skipped} skipped (../shared/corpus absent)" if skipped else ""
        print(f"{checked} doc block(s) checked, {differing} differ{note}")
        if differing:
            print("regenerate them with: python3 scripts/doc_examples.py update "
                  "--binary build/htpscope")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
