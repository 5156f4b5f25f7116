"""The page matrix's failures, grouped for the people fixing the pages (not a test).

    pytest tests/service/test_page_matrix.py --junitxml=/tmp/m.xml
    pytest tests/service/test_browser_matrix.py --junitxml=/tmp/b.xml
    python -m tests.service.page_report OUT.txt "a title" "HTTP matrix=/tmp/m.xml" "Browser=/tmp/b.xml"

Each problem is listed once per page, with the states and the role/lang rows that show it;
ids, hashes and dates are replaced by <id>, <hash>, <date> so equal problems group.
"""

from __future__ import annotations

import ast
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter

from tests.service.page_states import BUILDERS

HEAD = re.compile(r"(?:(GET|POST) )?(\S+) — state (\S+), role (\S+), lang (\w+)(, 390 px)?:")
Where = list[tuple[str, str]]  # (state, role/lang)


def norm(problem: str) -> str:
    problem = re.sub(r"\b[0-9a-f]{40,64}\b", "<hash>", problem)
    problem = re.sub(r"\b[0-9a-f]{8,39}\b", "<hex>", problem)

    def an_id(m: re.Match[str]) -> str:
        word = m.group(0)
        looks = re.search(r"[a-z]", word) and re.search(r"[A-Z0-9]", word)
        return "<id>" if looks else word

    problem = re.sub(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{12}(?![A-Za-z0-9_-])", an_id, problem)
    problem = re.sub(r"\d{4}-\d\d-\d\d( \d\d:\d\d)?", "<date>", problem)
    return re.sub(r"\d{4}年\d+月\d+日", "<date>", problem)


def _problems(message: str, phone: bool, rest: str) -> list[str]:
    if phone:
        line = rest.strip().splitlines()[0] if rest.strip() else ""
        try:
            found = ast.literal_eval(line)
            return [str(p) for p in found]
        except (ValueError, SyntaxError):
            return [line]
    out: list[str] = []
    for line in rest.splitlines():
        line = line.strip()
        if line.startswith("- "):
            out.append(line[2:])
        elif line.startswith("assert"):
            break
    return out


def read(path: str) -> tuple[int, int, Counter[str], dict[str, dict[str, Where]]]:
    groups: dict[str, dict[str, Where]] = {}
    kinds: Counter[str] = Counter()
    total = failed = 0
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            continue
        total += 1
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        if failure is None:
            continue
        failed += 1
        message = failure.text or failure.get("message") or ""
        head = HEAD.search(message)
        if head is None:
            page, state, who = str(case.get("name")), "", ""
            found = [(failure.get("message") or "")[:300]]
        else:
            method, url, state, role, lang, phone = head.groups()
            url = re.sub(r"/[A-Za-z0-9_-]{12}(?=/|\?|$)", "/<id>", url)
            url = re.sub(r"/join/[A-Za-z0-9_-]{20,}", "/join/<code>", url)
            page, who = f"{method or 'GET'} {url}", f"{role}/{lang}"
            found = _problems(message, bool(phone), message[head.end() :])
        for problem in map(norm, found):
            wide = problem.startswith(("table ", "page "))
            kinds[problem.split(" ")[0] + " too wide" if wide else problem.split(":")[0]] += 1
            groups.setdefault(page, {}).setdefault(problem, []).append((state, who))
    return failed, total, kinds, groups


def states_text(states: list[str]) -> str:
    for game in ("tb", "is"):
        every = [s for s in BUILDERS if s.startswith(f"{game}-")]
        if every and set(every) <= set(states):
            states = [s for s in states if s not in every] + [f"ALL-{game}-states"]
    return " ".join(states)


def write(out: str, title: str, inputs: list[str]) -> None:
    lines = [title]
    for item in inputs:
        label, path = item.split("=", 1)
        failed, total, kinds, groups = read(path)
        lines += ["", "", f"######## {label}: {failed} of {total} rows fail", ""]
        lines.append("Problems by kind (rows x problems):")
        lines += [f"  {n:5}  {k}" for k, n in kinds.most_common()]
        lines += ["", "By page and state (each problem once; the role/lang rows that show it):"]
        for page, problems in sorted(groups.items()):
            lines += ["", f"== {page}"]
            for problem, where in problems.items():
                states = sorted({s for s, _ in where})
                rows = sorted({w for _, w in where})
                lines.append(f"  - {problem}")
                lines.append(f"      states: {states_text(states)}")
                lines.append(f"      rows: {' '.join(rows)}")
        print(label, failed, total)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write(sys.argv[1], sys.argv[2], sys.argv[3:])
