#!/usr/bin/env python3
"""Every relative link of the given Markdown pages names an existing file,
and a #fragment names a heading of that file (GitHub's anchors)."""
import os
import re
import sys
from functools import lru_cache


@lru_cache(maxsize=None)
def anchors(path):
    out = set()
    fence = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fence = not fence
            if fence or not line.startswith('#'):
                continue
            text = line.lstrip('#').strip().lower()
            slug = re.sub(r'[^\w\- ]', '', text).replace(' ', '-')
            out.add(slug)
    return out


bad = 0
for page in sys.argv[1:]:
    with open(page, encoding='utf-8') as f:
        text = f.read()
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    for target in re.findall(r'\]\(([^)\s]+)\)', text):
        if re.match(r'[a-z]+:', target):
            continue  # http:, https:, mailto:
        path, _, frag = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.isfile(dest):
            print(f'{page}: link to {target}: no such file')
            bad += 1
        elif frag and dest.endswith('.md') and frag not in anchors(dest):
            print(f'{page}: link to {target}: no heading with that anchor')
            bad += 1
print(f'{len(sys.argv) - 1} pages, {bad} broken links')
sys.exit(1 if bad else 0)
