#!/usr/bin/env python3
"""tdoc_links.py: every relative link of the project's documents (README.md, BENCHMARKS.md,
docs/*.md, experiments/measured/README.md) points at a file or folder that exists, and a
#fragment into a Markdown file names one of its headings (GitHub's anchors); links inside code
blocks and inline code are text, not links. The checker first proves it finds a planted
broken link.   usage: tdoc_links.py [SOURCE_DIR]"""
import os, re, sys, tempfile

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$')


def targets(text):
    """(line number, target) of every link outside fenced code and inline code spans."""
    fence = None
    for no, line in enumerate(text.split('\n'), 1):
        m = re.match(r'^\s{0,3}(`{3,}|~{3,})', line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * len(m.group(1))
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        plain = re.sub(r'(`+)(?:(?!\1).)+?\1', '', line)
        for t in LINK.findall(plain):
            yield no, t
        r = REF.match(plain)
        if r:
            yield no, r.group(1)


def anchors(path):
    """GitHub's anchors of the headings of a Markdown file: lower case, punctuation but '-' and
    '_' dropped, spaces as '-', a repeated anchor suffixed -1, -2, ..."""
    seen, out, fence = {}, set(), None
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^\s{0,3}(`{3,}|~{3,})', line)
            if m:
                fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
                continue
            if fence:
                continue
            h = re.match(r'^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
            if not h:
                continue
            a = re.sub(r'[^\w\- ]', '', h.group(1).lower()).replace(' ', '-')
            k = seen.get(a, 0)
            seen[a] = k + 1
            out.add(a if k == 0 else '%s-%d' % (a, k))
    return out


def broken(path):
    """Every broken relative link of the file at path: (path, line, target)."""
    out = []
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for no, t in targets(text):
        if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', t) or t.startswith('//'):
            continue                     # a URL (http:, mailto:)
        rel, _, frag = t.partition('#')
        rel = rel.split('?', 1)[0]
        dest = os.path.normpath(os.path.join(os.path.dirname(path), rel)) if rel else path
        if not os.path.exists(dest):
            out.append((path, no, t))
        elif frag and dest.endswith('.md') and os.path.isfile(dest) and frag not in anchors(dest):
            out.append((path, no, t))
    return out


def documents(src):
    docs = [os.path.join(src, 'README.md'), os.path.join(src, 'BENCHMARKS.md'),
            os.path.join(src, 'experiments', 'measured', 'README.md')]
    d = os.path.join(src, 'docs')
    if os.path.isdir(d):
        docs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.md'))
    return [p for p in docs if os.path.exists(p)]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    fails = passes = 0
    # the checker: a planted broken link (in a link, an image, a reference) is found; the same
    # text in code is not a link
    with tempfile.TemporaryDirectory() as t:
        open(os.path.join(t, 'here.md'), 'w').close()
        p = os.path.join(t, 'x.md')
        with open(p, 'w') as f:
            f.write('# Top\n[ok](here.md) [ok](x.md#top) [web](https://example.org/x) [a](#top)\n'
                    '`[code](missing0.md)`\n```\n[fenced](missing0.md)\n```\n'
                    '[bad](missing1.md) ![img](charts/missing2.png)\n[ref]: missing3.md\n'
                    '[no heading](here.md#nowhere) [no anchor](#bottom)\n')
        got = [b[2] for b in broken(p)]
        want = ['missing1.md', 'charts/missing2.png', 'missing3.md', 'here.md#nowhere', '#bottom']
        if got == want:
            passes += 1
        else:
            fails += 1
            print(f'FAIL: the checker found {got}, not {want}')
    docs = documents(src)
    if not any(d.endswith('README.md') and os.path.dirname(d) == os.path.normpath(src) for d in docs) \
            and not os.path.exists(os.path.join(src, 'README.md')):
        fails += 1
        print(f'FAIL: no README.md in {src}')
    for d in docs:
        b = broken(d)
        if b:
            fails += 1
            print('FAIL: broken links:\n  ' + '\n  '.join('%s:%d: %s' % (os.path.relpath(f, src), no, t) for f, no, t in b))
        else:
            passes += 1
    print(f'{passes} passed, {fails} failed')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
