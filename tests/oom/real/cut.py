#!/usr/bin/env python3
"""cut.py - cuts the test logs of tests/oom/real/logs out of sources.json.

sources.json holds real text users posted publicly, copied verbatim from the
answers of the search tool (issues corpus, code corpus, read_file); each
entry records where it comes from.  This script is the only way a log gets
into logs/: a whole excerpt, or the lines from the first that matches FROM
to the last that matches TO, optionally reshaped the way a paste reshapes
text (quoted with '> ', indented, fenced, joined onto one line the way a
markdown converter joins a paragraph, or each line behind a log prefix:
"[rank3]: ", vLLM's "(EngineCore_DP0 pid=...) ERROR ... [core.py:718] ",
Python logging's "ERROR:root:").  Nothing is retyped or edited.

    python3 tests/oom/real/cut.py          # rewrite logs/ and PROVENANCE.tsv
    python3 tests/oom/real/cut.py --check  # exit 1 when logs/ differs
"""
import json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (log name, source name, FROM regex or None, TO regex or None, reshape)
CUTS = [
    ("tpu-full-v4-32", "easydel-166-v4-32", None, None, None),
    ("tpu-from-total", "easydel-166-v4-32", r"^Total hbm usage", None, None),
    ("tpu-from-output-size", "easydel-166-v4-32", r"^Output size", None, None),
    ("tpu-from-requirement", "easydel-166-v4-32", r"^Program hbm requirement", None, None),
    ("tpu-from-largest", "tf-2019-v3-8-full", r"Largest program allocations", None, None),
    ("tpu-one-entry", "tf-2019-v3-8-full", r"^  1\. Size", r"^     =====", None),
    ("tpu-quoted", "easydel-166-v4-32", r"XlaRuntimeError", None, "quote"),
    ("tpu-indented", "tf-2019-v3-8-full", r"Compilation failure", r"Allocation type", "indent"),
    ("tpu-fenced", "lwm-60-v3-8", r"XlaRuntimeError", r"arguments", "fence"),
    ("tpu-one-line", "easydel-166-v4-32", r"XlaRuntimeError", r"^  1\. Size", "join"),
    ("tpu-header-v2-8", "easydel-78-v2-8", None, None, None),
    ("tpu-wrapped-lwm", "lwm-60-v3-8", None, None, None),
    ("tpu-tf-2019", "tf-2019-v3-8-full", None, None, None),
    ("tpu-markdown", "tds-markdown-joined", None, None, None),
    ("tpu-absl", "tf-tpu-598-absl", None, None, None),
    ("tpu-args-joined", "xla-doc-1000-joined", None, None, None),
    ("tpu-tf-scoped", "transformers-3702-tf-scoped", None, None, None),
    ("tpu-early-abort", "jax-7822-early-abort", None, None, None),
    ("tpu-early-abort-doc", "xla-doc-1000-early-abort", None, None, None),
    ("tpu-sparsecore-doc", "xla-doc-1000-sparsecore", None, None, None),
    ("smem-quoted", "vllm-8318-smem-quoted", None, None, None),
    ("vmem-header", "torchxla-9524-vmem-header", None, None, None),
    ("vmem-entries", "torchxla-9524-vmem-entries", None, None, None),
    ("vmem-scoped-doc", "xla-doc-1001-vmem-scoped", None, None, None),
    ("rt-reserve-frag", "torchxla-3470-reserve-frag", None, None, None),
    ("rt-reserve", "transformers-22328-reserve", None, None, None),
    ("rt-load-program", "xla-doc-0101-load-program", None, None, None),
    ("rt-device-buffer", "gemma-85-device-buffer", None, None, None),
    ("rt-device-buffer-two", "diffusers-8358-device-buffer", None, None, None),
    ("rt-device-buffer-doc", "xla-doc-0100-device-buffer", None, None, None),
    ("rt-device-buffer-absl", "marin-2387-absl", None, None, None),
    ("rt-device-buffer-wrapped", "marin-2387-wrapped", None, None, None),
    ("gpu-peak", "jax-13428-gpu-peak", None, None, None),
    ("gpu-stats", "afprofile-8-gpu-stats", None, None, None),
    ("gpu-bare", "alphafold-1023-gpu-bare", None, None, None),
    ("gpu-bare-traceback", "jax-22755-gpu-bare", None, None, None),
    ("gpu-buffers-only", "t5x-870-gpu-buffers", None, None, None),
    ("gpu-buffers-tabs", "tapnet-48-gpu-tabs", None, None, None),
    ("gpu-buffer-one", "thera-10-gpu-buffer", None, None, None),
    ("gpu-wrapped", "jax-788-gpu-wrapped", None, None, None),
    ("gpu-request-wrapped", "jax-788-gpu-request", None, None, None),
    ("gpu-request", "mtj-66-request", None, None, None),
    ("gpu-request-128", "mtj-90-request", None, None, None),
    ("gpu-bfc-stats", "tf-3304-bfc-stats", None, None, None),
    ("gpu-bfc-title", "udacity-7-bfc-title", None, None, None),
    ("gpu-bfc-named", "faq-bfc-gpu0", None, None, None),
    ("gpu-prefixed-rank", "jax-13428-gpu-peak", r"XlaRuntimeError", None, "rank"),
    ("tpu-e1000-wrapped", "v7x-e1000-wrapped", None, None, None),
    ("tpu-prefixed-vllm", "easydel-166-v4-32", r"XlaRuntimeError", None, "vllm"),
    ("tpu-prefixed-pylog", "lwm-60-v3-8", r"XlaRuntimeError", None, "pylog"),
]


def cut(text, start, end):
    lines = text.split("\n")
    a, b = 0, len(lines) - 1
    if start:
        a = next(i for i, l in enumerate(lines) if re.search(start, l))
    if end:
        b = next(i for i, l in enumerate(lines) if re.search(end, l) and i >= a)
    return lines[a:b + 1]


def reshape(lines, how):
    if how == "quote":
        return ["> " + l if l else ">" for l in lines]
    if how == "indent":
        return ["    " + l if l else l for l in lines]
    if how == "fence":
        return ["```"] + lines + ["```"]
    if how == "join":
        return [" ".join(l.strip() for l in lines if l.strip())]
    if how == "rank":
        return ["[rank3]: " + l for l in lines]
    if how == "vllm":   # the prefix vLLM's engine process puts on each line (vllm-project/vllm#25837)
        return ["(EngineCore_DP0 pid=17374) ERROR 09-28 15:47:24 [core.py:718] " + l for l in lines]
    if how == "pylog":  # Python logging's default format
        return ["ERROR:root:" + l for l in lines]
    return lines


def main():
    src = {s["name"]: s for s in json.load(open(os.path.join(HERE, "sources.json")))}
    out = {}
    for name, sname, start, end, how in CUTS:
        out[name + ".log"] = "\n".join(reshape(cut(src[sname]["excerpt"], start, end), how)) + "\n"
    prov = "log\tsource\taddress\tretrieved through\tcut\n" + "".join(
        "%s.log\t%s\t%s\t%s\t%s\n" % (name, sname, src[sname]["url"], src[sname]["via"],
                                      "whole excerpt" if not (start or end or how) else
                                      "lines %s .. %s%s" % (start or "first", end or "last",
                                                            ", reshaped: " + how if how else ""))
        for name, sname, start, end, how in CUTS)
    out_prov = os.path.join(HERE, "PROVENANCE.tsv")
    logs = os.path.join(HERE, "logs")
    if "--check" in sys.argv:
        have = {f: open(os.path.join(logs, f)).read() for f in os.listdir(logs) if f.endswith(".log")}
        bad = sorted(set(have) ^ set(out)) + sorted(f for f in out if f in have and have[f] != out[f])
        for f in bad:
            print("tests/oom/real/logs/%s: not what cut.py cuts from sources.json" % f)
        if not os.path.exists(out_prov) or open(out_prov).read() != prov:
            print("tests/oom/real/PROVENANCE.tsv: not what cut.py writes")
            bad.append("PROVENANCE.tsv")
        return 1 if bad else 0
    with open(out_prov, "w") as fh:
        fh.write(prov)
    for f in os.listdir(logs):
        if f.endswith(".log") and f not in out:
            os.remove(os.path.join(logs, f))
    for f, text in out.items():
        with open(os.path.join(logs, f), "w") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
