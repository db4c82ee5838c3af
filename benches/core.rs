//! Criterion benchmarks of the pure core (native): detection (and its time on hostile
//! inputs), redaction, stream restoration and the vault. `cargo bench --bench core`
//! (one group: `cargo bench --bench core -- hostile`); figures in BENCHMARKS.md.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test harness

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use veil_core::policy::CompiledPolicy;
use veil_core::provider::Provider;
use veil_core::redact::Redactor;
use veil_core::stream::{Framing, ResponseStream};
use veil_core::token::{TokenMap, TokenMinter};
use veil_core::vault::{MemStore, Vault, VaultConfig};

const WORDS: &[&str] = &[
    "the",
    "deployment",
    "pipeline",
    "failed",
    "again",
    "after",
    "config",
    "change",
    "so",
    "we",
    "rolled",
    "back",
    "and",
    "opened",
    "an",
    "incident",
    "to",
    "track",
    "root",
    "cause",
    "while",
    "customers",
    "reported",
    "slow",
    "checkout",
    "pages",
    "version",
    "2.4.1",
    "at",
    "12:30",
    "on",
    "2024-05-01",
    "order",
    "#88123",
];
const PII: &[&str] = &["jane.doe@example.com", "(415) 555-0132", "123-45-6789", "4111 1111 1111 1111", "10.20.30.40"];

/// Realistic text of `size` bytes; with `pii`, one value per KiB.
fn text(size: usize, pii: bool) -> String {
    let mut out = String::with_capacity(size + 32);
    let mut i = 0usize;
    while out.len() < size {
        i += 1;
        if pii && i % 150 == 0 {
            out.push_str(PII[(i / 150) % PII.len()]);
        } else {
            out.push_str(WORDS[(i * 7 + i / 3) % WORDS.len()]);
        }
        out.push(' ');
    }
    out
}

/// Realistic clean text of three kinds, `size` bytes, no sensitive values: chat prompts,
/// source code and service logs (digits, hex ids, versions, timestamps, paths).
fn corpus(kind: &str, size: usize) -> String {
    const CHAT: &[&str] = &[
        "Can you help me rewrite this paragraph so it sounds more professional? ",
        "We shipped version 2.4.1 on 2024-05-01 and the checkout latency went from 120 ms to 340 ms. ",
        "Summarize the meeting notes below in three bullet points for the team. ",
        "The customer asked why order #88123 was charged twice; explain the refund policy politely. ",
        "Translate the following into German: the deployment pipeline failed again after the config change. ",
        "What is the difference between a mutex and a semaphore, with an example in Rust? ",
    ];
    const CODE: &[&str] = &[
        "fn parse(input: &[u8]) -> Result<Vec<Token>, Error> {\n    let mut out = Vec::with_capacity(input.len() / 4);\n",
        "    for (i, b) in input.iter().enumerate() { if *b == b'\\n' { line += 1; } }\n",
        "const MAX_RETRIES: u32 = 5; // see RFC 9110 section 15.6.4\n",
        "def handler(event, context):\n    items = [x for x in event[\"Records\"] if x[\"size\"] > 1024]\n",
        "    return {\"statusCode\": 200, \"body\": json.dumps({\"count\": len(items)})}\n",
        "SELECT id, created_at, total FROM orders WHERE total > 100.50 ORDER BY created_at DESC LIMIT 20;\n",
    ];
    const LOGS: &[&str] = &[
        "2024-05-01T12:30:45.123Z INFO  request_id=7f9c2a1e-4b3d-4e8f-9a6b-1c2d3e4f5a6b method=GET path=/api/v2/items status=200 dur_ms=12\n",
        "2024-05-01T12:30:45.987Z WARN  worker-3 retrying job 48213 (attempt 2/5) after 250ms backoff\n",
        "2024-05-01T12:30:46.002Z DEBUG cache hit ratio=0.93 keys=18234 evicted=112 commit=3f9a1c0de1b2c3d4\n",
        "2024-05-01T12:30:46.450Z ERROR upstream timeout after 30000 ms; build 1.18.3-rc2 pid=4412\n",
    ];
    let parts = match kind {
        "chat" => CHAT,
        "code" => CODE,
        _ => LOGS,
    };
    let mut out = String::with_capacity(size + 256);
    let mut i = 0usize;
    while out.len() < size {
        out.push_str(parts[(i * 5 + i / 7) % parts.len()]);
        i += 1;
    }
    out.truncate(size);
    out
}

fn detection(c: &mut Criterion) {
    let policy = CompiledPolicy::from_json(b"").unwrap();
    let mut group = c.benchmark_group("detect");
    for size in [1024, 64 * 1024, 1024 * 1024] {
        for pii in [false, true] {
            let t = text(size, pii);
            group.throughput(Throughput::Bytes(t.len() as u64));
            group.bench_with_input(BenchmarkId::new(if pii { "pii_per_kib" } else { "clean" }, size), &t, |b, t| {
                b.iter(|| policy.engine().scan(t.as_bytes()))
            });
        }
        for kind in ["chat", "code", "logs"] {
            let t = corpus(kind, size);
            assert!(policy.engine().scan(t.as_bytes()).is_empty(), "the {kind} corpus must be free of findings");
            group.throughput(Throughput::Bytes(t.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind, size), &t, |b, t| {
                b.iter(|| policy.engine().scan(t.as_bytes()))
            });
        }
    }
    group.finish();
}

/// Hostile inputs (the same as the unit test `detect::tests::hostile_inputs_scan_to_their_expected_findings`,
/// which checks what they yield): each at 64 KiB and four times that. The scan is
/// linear when the 256 KiB one takes about four times as long (the same throughput):
/// quadratic would be sixteen.
fn hostile(c: &mut Criterion) {
    #[allow(clippy::type_complexity)]
    const HOSTILE: [(&str, fn(usize) -> Vec<u8>); 14] = [
        ("7777", |n| vec![b'7'; n]),
        ("1-1-", |n| b"1-".repeat(n / 2)),
        ("1 1 ", |n| b"1 ".repeat(n / 2)),
        ("ab:ab:", |n| b"ab:".repeat(n / 3)),
        ("a@a@", |n| b"a@".repeat(n / 2)),
        ("Dr Dr ", |n| b"Dr ".repeat(n / 3)),
        ("key=key=", |n| b"key=".repeat(n / 4)),
        ("::::", |n| b"::".repeat(n / 2)),
        ("random", |n| (0..n as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect()),
        ("corp.corp.x", |n| [&b"a "[..], &b"corp.".repeat(n / 5), b"x"].concat()),
        ("a.int.example.com.x", |n| [&b"a "[..], &b"a.int.".repeat(n / 6), b"example.com.x"].concat()),
        ("Dan.Dan.x", |n| [&b"a "[..], &b"Dan.".repeat(n / 4), b"x"].concat()),
        ("kind: Secret data: k: v", |n| [&b"kind: Secret\ndata:\n"[..], &b"  k: v\n".repeat(n / 7)].concat()),
        ("sv=…&sig=…", |n| [&b"sv=2022-11-02&sig="[..], &[b'A'; 44]].concat().repeat(n / 62)),
    ];
    let policy = CompiledPolicy::from_json(b"").unwrap();
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    for (name, make) in HOSTILE {
        for size in [64 << 10, 256 << 10] {
            let input = make(size);
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, size), &input, |b, input| {
                b.iter(|| policy.engine().scan(input))
            });
        }
    }
    group.finish();
}

fn redaction(c: &mut Criterion) {
    // A body with nothing in common with earlier ones: no memory of texts, and a new
    // minter (no memory of MACs) per redaction. The next turn of a conversation costs
    // less (BENCHMARKS.md §1).
    let policy = CompiledPolicy::from_json(br#"{"detectors":{"memory":false}}"#).unwrap();
    let minter = TokenMinter::new([1; 32]);
    let mut group = c.benchmark_group("redact_chat_body");
    for size in [1024, 16 * 1024, 128 * 1024] {
        for pii in [false, true] {
            let messages: Vec<_> = text(size, pii)
                .as_bytes()
                .chunks(1500)
                .map(|c| serde_json::json!({"role": "user", "content": String::from_utf8_lossy(c)}))
                .collect();
            let body = serde_json::to_vec(&serde_json::json!({"model": "gpt-4o-mini", "messages": messages})).unwrap();
            group.throughput(Throughput::Bytes(body.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(if pii { "pii_per_kib" } else { "clean" }, size),
                &body,
                |b, body| {
                    b.iter(|| {
                        let minter = minter.clone();
                        Redactor {
                            profile: policy.profile(None),
                            provider: Provider::OpenAiChat,
                            minter: &minter,
                            scope: b"s",
                            taken: &|_, _| false,
                        }
                        .redact(body)
                    })
                },
            );
        }
    }
    group.finish();
}

fn streaming(c: &mut Criterion) {
    let mut map = TokenMap::default();
    let token = map.issue(&TokenMinter::new([1; 32]), b"s", "EMAIL", b"jane@example.com");
    let mut stream = String::new();
    for i in 0..200 {
        let piece = if i % 20 == 0 { format!("mail {token} ") } else { "some words ".to_string() };
        stream += &format!(
            "data: {{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}},\"finish_reason\":null}}]}}\n\n",
            serde_json::to_string(&piece).unwrap()
        );
    }
    stream += "data: [DONE]\n\n";
    let mut group = c.benchmark_group("stream_restore");
    group.throughput(Throughput::Bytes(stream.len() as u64));
    group.bench_function("openai_chat_200_events_64b_chunks", |b| {
        b.iter(|| {
            let mut r = ResponseStream::new(Provider::OpenAiChat, Framing::Sse);
            let chunks: Vec<&[u8]> = stream.as_bytes().chunks(64).collect();
            let mut n = 0;
            for (i, chunk) in chunks.iter().enumerate() {
                n += r.feed(chunk, i + 1 == chunks.len(), &map).len();
            }
            n
        })
    });
    group.finish();
}

fn vault(c: &mut Criterion) {
    let config = VaultConfig { ttl_secs: 86_400, max_entries: 100_000, max_bytes: 32 << 20 };
    let vault = Vault::new(&[9; 32], config);
    let store = MemStore::default();
    for i in 0..100_000u64 {
        vault.put(
            &store,
            b"scope",
            &format!("«token:EMAIL:{i:08x}»"),
            format!("user{i}@example.com").as_bytes(),
            1_000,
        );
    }
    let mut group = c.benchmark_group("vault");
    let mut i = 0u64;
    group.bench_function("put_token", |b| {
        b.iter(|| {
            i += 1;
            vault.put(&store, b"scope", &format!("«token:EMAIL:{:08x}»", i % 100_000), b"user@example.com", 2_000)
        })
    });
    group.bench_function("get_token", |b| {
        b.iter(|| {
            i += 1;
            vault.get(&store, b"scope", &format!("«token:EMAIL:{:08x}»", i % 100_000), 2_000)
        })
    });
    group.sample_size(10);
    group.bench_function("sweep_100k_entries_all_expired", |b| {
        b.iter_batched(
            || {
                let s = MemStore::default();
                for i in 0..100_000u64 {
                    vault.put(&s, b"scope", &format!("«token:EMAIL:{i:08x}»"), b"user@example.com", 1_000);
                }
                s
            },
            |s| vault.sweep(&s, 0, config.slots(), 1_000 + 86_400),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("sweep_100k_entries_none_expired", |b| {
        b.iter(|| vault.sweep(&store, 0, config.slots(), 2_000))
    });
    group.finish();
    println!(
        "vault memory: {} keys, {} bytes for {} entries ({} bytes per entry, keys included)",
        store.keys(),
        store.bytes(),
        100_000,
        store.bytes() / 100_000
    );
}

criterion_group!(benches, detection, hostile, redaction, streaming, vault);
criterion_main!(benches);
