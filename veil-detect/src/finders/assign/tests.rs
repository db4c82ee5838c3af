//! The tests of [`super`].

use super::*;

fn values(text: &str, class: NameClass) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some((s, e)) = find(text.as_bytes(), at, class) {
        out.push(&text[s..e]);
        at = e;
    }
    out
}

/// The windows from the operators' block mask are those of a walk with
/// `next_operator`, on texts dense in operators, quotes and names, across blocks.
#[test]
fn the_operator_mask_walk_agrees_with_next_operator() {
    let parts = [
        "password",
        "=",
        ":",
        ">",
        ",",
        "\"",
        "'",
        " ",
        "token",
        "<",
        "/",
        "Secret",
        "-",
        "\n",
        "s3cr3tV4lue9",
        "==",
        "apiKey",
        "(",
        ")",
        "x",
        "=>",
        ":=",
    ];
    let mut seed = 5u64;
    for len in [0, 1, 10, 40, 90, 300] {
        for _ in 0..40 {
            let mut text = String::new();
            for _ in 0..len {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                text.push_str(parts[(seed >> 33) as usize % parts.len()]);
            }
            let hay = text.as_bytes();
            let mut walked = Vec::new();
            let mut at = 0;
            while let Some(op) = next_operator(hay, at) {
                at = op + 1;
                if let Some((_, _, end)) = assignment(hay, op, &mut Names::default()) {
                    crate::rule::push_window(&mut walked, op, (end + 2).min(hay.len()));
                }
            }
            assert_eq!(windows(&crate::engine::text::Text::new(hay)), walked, "{text:?}");
        }
    }
}

/// `template` finds the four expansions anywhere in a value, and nothing else.
#[test]
fn templates_anywhere_in_a_value() {
    for v in ["${X}", "a${X}", "pre$(cmd)", "{{ x }}", "x}}", "$$${", "a{b}}"] {
        assert!(template(v.as_bytes()), "{v}");
    }
    for v in ["", "$", "{", "}", "$X", "{x}", "a$b{c}d", "}{", "$ {", "{ {"] {
        assert!(!template(v.as_bytes()), "{v}");
    }
    assert!(reference(b"pre-${SUFFIX}", true));
    assert!(reference(b"OS.ENVIRON[\"X\"]", false));
    assert!(!reference(b"OS.ENVIRON[\"X\"]", true));
    assert!(reference(b"Vault:secret/data/x", true));
}

/// The reader passes an operator whose bare value is shorter than
/// `MIN_BARE_VALUE` before it reads the name: no class accepts such a value, of any
/// bytes, in code or not.
#[test]
fn no_short_bare_value_is_accepted() {
    let alphabet = b"aZ9$_-./+=!@#%^&*()xQ7";
    let mut seed = 11u64;
    for len in 0..MIN_BARE_VALUE {
        for _ in 0..2000 {
            let value: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    alphabet[(seed >> 33) as usize % alphabet.len()]
                })
                .collect();
            for class in [NameClass::Password, NameClass::Secret] {
                for code in [false, true] {
                    assert!(!accept(class, &value, false, code), "{:?}", String::from_utf8_lossy(&value));
                }
            }
        }
    }
    for (text, room) in [
        ("status=200 ", false),
        ("timeout: 30s\n", false),
        ("password: hunter2\n", true),
        ("password = 'abcd'", true),
        ("token =   \"", true),
        ("password:\nnext line", false),
        ("password=", false),
        ("password=abcdef", true),
        ("password=abc def", false),
    ] {
        let op = text.find(['=', ':']).unwrap_or_default();
        assert_eq!(room_for_a_value(text.as_bytes(), op + 1), room, "{text:?}");
    }
    assert_eq!(values("password=abc12\npassword=abc123\n", NameClass::Password), ["abc123"]);
}

#[test]
fn the_letter_tables_let_every_trigger_word_through_and_most_names_not() {
    let lists: [&[&str]; 5] = [PASSWORD_WORDS, PASSWORD_PARTS, SECRET_WORDS, SECRET_PARTS, &["key"]];
    for word in lists.iter().flat_map(|l| l.iter()) {
        for name in [
            word.to_string(),
            word.to_ascii_uppercase(),
            format!("db_{word}_2"),
            format!("x{}", word.to_ascii_uppercase()),
        ] {
            assert!(may_trigger(name.as_bytes()), "{name}");
        }
    }
    for name in
        ["status", "timeout", "request_id", "latency_ms", "replicas", "image", "version", "backoff_ms", "p", "w", ""]
    {
        assert!(!may_trigger(name.as_bytes()), "{name}");
    }
}

#[test]
fn the_trigger_test_is_its_definition_read_either_way() {
    // The definition: a trigger word's first two letters (a two-letter word) or
    // three begin at some byte of the name, whatever the case.
    let lists: [&[&str]; 5] = [PASSWORD_WORDS, PASSWORD_PARTS, SECRET_WORDS, SECRET_PARTS, &["key"]];
    let heads: Vec<&[u8]> = lists.iter().flat_map(|l| l.iter()).map(|w| &w.as_bytes()[..w.len().min(3)]).collect();
    let defined = |name: &[u8]| {
        (0..name.len())
            .any(|i| heads.iter().any(|h| name.get(i..i + h.len()).is_some_and(|n| n.eq_ignore_ascii_case(h))))
    };
    // Names of letters, digits and separators, many with a trigger's letters.
    let alphabet = b"aAkKpPsSwWtTeEyYoOcCdDrRnN_-.0x";
    let (mut seed, mut with) = (5u64, 0);
    for _ in 0..20_000 {
        let mut name = Vec::new();
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        for i in 0..(seed >> 60) as usize + 1 {
            name.push(alphabet[((seed >> (i * 5 % 55)) % alphabet.len() as u64) as usize]);
        }
        assert_eq!(may_trigger(&name), defined(&name), "{:?}", String::from_utf8_lossy(&name));
        with += usize::from(defined(&name));
        // Walked back from the operator after it, from a byte that is no name's.
        let mut hay = b"( ".to_vec();
        hay.extend_from_slice(&name);
        assert_eq!(walk_back(&hay, hay.len()), (2, defined(&name)), "{:?}", String::from_utf8_lossy(&name));
    }
    // Both answers are common in the sample.
    assert!((500..19_500).contains(&with), "{with}");
}

#[test]
fn names_split_at_humps_and_separators() {
    for name in
        ["dbPassword", "DB_PASSWORD", "db.password", "DbPassword", "db-pass", "SMTP_PASS", "passwort", "userPwd"]
    {
        assert_eq!(classify(name.as_bytes()), Some(NameClass::Password), "{name}");
    }
    for name in [
        "apiKey",
        "API_KEY",
        "ApiKey",
        "APIKey",
        "client_secret",
        "clientSecret",
        "AUTH_TOKEN",
        "accessToken",
        "signing_key",
        "MASTER_KEY",
        "key",
        "_authToken",
        "auth",
        "x-api-key",
        "SECRET_KEY_BASE",
        "githubPat",
    ] {
        assert_eq!(classify(name.as_bytes()), Some(NameClass::Secret), "{name}");
    }
    for name in [
        "password_length",
        "token_url",
        "secret_name",
        "api_key_id",
        "max_tokens",
        "publicKey",
        "foreign_key",
        "keyboard",
        "monkey",
        "tokenizer",
        "author",
        "passenger",
        "passport",
        "compass",
        "bypass",
        "keyId",
        "password_hash",
        "TOKEN_TYPE",
        "authorUrl",
        "key_path",
        "idempotency_key",
        "sort_key",
        "has_password",
    ] {
        assert_eq!(classify(name.as_bytes()), None, "{name}");
    }
}

#[test]
fn every_syntax() {
    let s = "Zx9vQ2mK7pL4rT8wY1nB";
    let cases = [
        format!("API_KEY={s}"),
        format!("export API_KEY={s}"),
        format!("set API_KEY={s}"),
        format!("$env:API_KEY = \"{s}\""),
        format!("docker run -e API_KEY={s} app"),
        format!("apiKey: {s}"),
        format!("\"apiKey\": \"{s}\""),
        format!("{{\"ApiKey\":\"{s}\"}}"),
        format!("String apiKey = \"{s}\";"),
        format!("apiKey := \"{s}\""),
        format!("API_KEY ?= {s}"),
        format!("API_KEY ::= {s}"),
        format!("'api_key' => '{s}',"),
        format!("os.environ[\"API_KEY\"] = \"{s}\""),
        format!("System.setProperty(\"API_KEY\", \"{s}\");"),
        format!("<apiKey>{s}</apiKey>"),
        format!("<add key=\"ApiKey\" value=\"{s}\"/>"),
        format!("<connector apiKey=\"{s}\" />"),
        format!("app.api.key={s}"),
        format!("api_key = \"{s}\"   # HCL"),
        format!("--api-key={s}"),
        format!("env:\n  - name: API_TOKEN\n    value: {s}\n"),
        format!("//registry.npmjs.org/:_authToken={s}"),
        format!("const API_KEY = `{s}`;"),
    ];
    for text in &cases {
        assert_eq!(values(text, NameClass::Secret), vec![s], "{text}");
    }
}

#[test]
fn passwords() {
    for (text, want) in [
        ("DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("password: correcthorse", "correcthorse"),
        ("\"password\": \"s0me pass phrase\"", "s0me pass phrase"),
        ("spring.datasource.password=Vx7#qL2m", "Vx7#qL2m"),
        ("<password>Vx7#qL2m</password>", "Vx7#qL2m"),
        ("dbPassword := \"Vx7#qL2m\"", "Vx7#qL2m"),
        ("Passwort: Sommer2024!", "Sommer2024!"),
    ] {
        assert_eq!(values(text, NameClass::Password), vec![want], "{text}");
    }
}

#[test]
fn references_placeholders_and_other_lines_are_not_values() {
    for text in [
        "API_KEY=${API_KEY}",
        "api_key = var.api_key",
        "apiKey: {{ .Values.apiKey }}",
        "API_KEY=<your-api-key>",
        "api_key = os.environ[\"API_KEY\"]",
        "apiKey = process.env.API_KEY",
        "token: xxxxxxxxxxxxxxxx",
        "SECRET_KEY=changeme",
        "api_key: \"your-api-key-here\"",
        "token = getToken()",
        "password = getpass",
        "password:\n  Zx9vQ2mK7pL4rT8wY1nB",
        "api_key:\n  value: Zx9vQ2mK7pL4rT8wY1nB",
        "password_length: 16",
        "max_tokens: 4096",
        "token_url: https://auth.example.com/oauth/token",
        "if (password == \"Zx9vQ2mK7pL4rT8wY1nB\")",
        "password: ********",
        "secret: op://vault/item/field",
        "Password: reset it in the portal",
        "token = ${{ secrets.DEPLOY_TOKEN }}",
        "commit: 3f9a1c0d2b4e6f8a0c1e3d5b7a9f2e4c6b8d0a1f",
        "key: color",
        "publicKey: AAAAC3NzaC1lZDI1NTE5AAAAIGb0",
    ] {
        assert!(values(text, NameClass::Password).is_empty(), "{text}");
        assert!(values(text, NameClass::Secret).is_empty(), "{text}");
    }
}

#[test]
fn hex_keys_count_when_the_name_says_key() {
    let hex = "9f86d081884c7d659a2feaa0c55ad015";
    assert_eq!(values(&format!("ENCRYPTION_KEY={hex}"), NameClass::Secret), vec![hex]);
    assert_eq!(values(&format!("secret: {hex}{hex}"), NameClass::Secret), vec![format!("{hex}{hex}").as_str()]);
    assert!(values(&format!("sha256: {hex}{hex}"), NameClass::Secret).is_empty());
    assert!(values(&format!("commit_id={hex}"), NameClass::Secret).is_empty());
    assert!(values(&format!("The cache key={hex} maps"), NameClass::Secret).is_empty());
    // A quote that is never closed on its line: the word after it.
    assert_eq!(values("\"auth_token\": \"Zx9vQ2mK7pL4rT8wY1nB\nnext", NameClass::Secret), vec!["Zx9vQ2mK7pL4rT8wY1nB"]);
}
