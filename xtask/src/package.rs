//! `cargo xtask package`: `veil.wasm` as the OCI image Istio pulls
//! (`target/oci/veil-<version>.tar`, an OCI image layout; see `oci.rs` for the format),
//! and `target/oci/wasmplugin.yaml`: `deploy/istio/wasmplugin.yaml` with its `url` tagged
//! with the version and `sha256` set to the image's manifest digest.

use std::path::{Path, PathBuf};

use serde_norway::Value;

use crate::{k8s, oci, Result};

/// The shipped WasmPlugin, the template of the rendered one.
pub const TEMPLATE: &str = "deploy/istio/wasmplugin.yaml";

const USAGE: &str = "cargo xtask package [--image REGISTRY/REPOSITORY] [--out DIR]";

pub struct Packaged {
    pub tar: PathBuf,
    pub plugin: PathBuf,
    pub url: String,
    pub image: oci::Image,
    pub tar_size: usize,
}

/// `cargo xtask package [--image REGISTRY/REPOSITORY] [--out DIR]`, once veil.wasm is
/// built: the repository defaults to the template's, the directory to `target/oci`.
/// Prints the manifest digest on stdout, the rest on stderr.
pub fn run(root: &Path, wasm_path: &Path, args: &[String]) -> Result {
    let mut repository = None;
    let mut out = root.join("target").join("oci");
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--image", Some(value)) => repository = Some(value.clone()),
            ("--out", Some(value)) => out = root.join(value),
            _ => return Err(format!("unexpected `{arg}`: {USAGE}")),
        }
    }
    // The manifests applied with the rendered WasmPlugin must be sound as well.
    k8s::check_deploy(root).map_err(|errors| format!("deploy/:\n  {}", errors.join("\n  ")))?;
    let read = |path: &Path| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let wasm = read(wasm_path)?;
    let cargo_toml = String::from_utf8_lossy(&read(&root.join("Cargo.toml"))?).into_owned();
    let template = String::from_utf8_lossy(&read(&root.join(TEMPLATE))?).into_owned();
    let done = package(&wasm, &version(&cargo_toml)?, &template, repository.as_deref(), &out)?;
    let image = &done.image;
    let shown = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    eprintln!(
        "==> {}: OCI image layout, {} bytes\n    manifest {} ({} bytes)\n    config   {} ({} bytes)\n    \
         layer    {} ({} bytes, {}: {WASM} = veil.wasm, {} bytes)",
        shown(&done.tar),
        done.tar_size,
        image.manifest.digest(),
        image.manifest.bytes.len(),
        image.config.digest(),
        image.config.bytes.len(),
        image.layer.digest(),
        image.layer.bytes.len(),
        oci::LAYER_MEDIA_TYPE,
        wasm.len(),
        WASM = oci::WASM_FILE,
    );
    eprintln!(
        "==> {}: url {}, sha256 {}\n    push it (README, \"Istio\"): \
         skopeo copy --preserve-digests oci-archive:{}:{} docker://{}",
        shown(&done.plugin),
        done.url,
        oci::sha256_hex(&image.manifest.bytes),
        shown(&done.tar),
        image.tag,
        done.url.trim_start_matches("oci://"),
    );
    println!("{}", image.manifest.digest());
    Ok(())
}

/// The image of `wasm` tagged `version`, written to `out/veil-<version>.tar`, and the
/// WasmPlugin rendered from `template` for it to `out/wasmplugin.yaml`.
pub fn package(wasm: &[u8], version: &str, template: &str, repository: Option<&str>, out: &Path) -> Result<Packaged> {
    let image = oci::image(wasm, version)?;
    let tar = image.layout_tar()?;
    let repository = match repository {
        Some(given) => checked_repository(given)?,
        None => checked_repository(template_url(template)?)?,
    };
    let url = format!("oci://{repository}:{version}");
    let plugin = render_wasmplugin(template, &url, &oci::sha256_hex(&image.manifest.bytes))?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let tar_path = out.join(format!("veil-{version}.tar"));
    let plugin_path = out.join("wasmplugin.yaml");
    std::fs::write(&tar_path, &tar).map_err(|e| format!("{}: {e}", tar_path.display()))?;
    std::fs::write(&plugin_path, plugin).map_err(|e| format!("{}: {e}", plugin_path.display()))?;
    Ok(Packaged { tar: tar_path, plugin: plugin_path, url, tar_size: tar.len(), image })
}

/// The root package's version: `version` in the `[package]` table of Cargo.toml.
pub fn version(cargo_toml: &str) -> Result<String> {
    let mut table = "";
    for line in cargo_toml.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line;
        } else if let (Some(value), "[package]") = (line.strip_prefix("version"), table) {
            let value = value.trim_start().strip_prefix('=').map(|v| v.trim().trim_matches('"'));
            if let Some(value) = value.filter(|v| !v.is_empty()) {
                return Ok(value.to_string());
            }
        }
    }
    Err("Cargo.toml: no `version` in [package]".into())
}

/// The WasmPlugin's `spec.url` in the template.
fn template_url(template: &str) -> Result<&str> {
    let line = template
        .lines()
        .find_map(|l| l.strip_prefix("  url: "))
        .ok_or_else(|| format!("{TEMPLATE}: no `url:` in spec"))?;
    Ok(line.trim())
}

/// `REGISTRY/REPOSITORY` without `oci://` and without the tag (given by the version).
fn checked_repository(reference: &str) -> Result<String> {
    let reference = reference.trim().trim_start_matches("oci://");
    let (path, last) = match reference.rsplit_once('/') {
        Some((path, last)) => (Some(path), last),
        None => (None, reference),
    };
    let last = match last.split_once(':') {
        // `registry:5000/…`: a port, kept; `repo:tag` in the last segment: the tag goes.
        Some((repo, _tag)) => repo,
        None => last,
    };
    if reference.contains('@') || last.is_empty() {
        return Err(format!("`{reference}`: give REGISTRY/REPOSITORY (the tag is the version)"));
    }
    Ok(match path {
        Some(path) => format!("{path}/{last}"),
        None => last.to_string(),
    })
}

/// `template` with `spec.url` set to `url` and `spec.sha256` to `sha256` (hex), edited
/// as text so that its comments stay; checked by parsing both: the result must be the
/// template's document with those two fields changed, and valid against the schema.
pub fn render_wasmplugin(template: &str, url: &str, sha256: &str) -> Result<String> {
    let mut out = String::with_capacity(template.len() + 100);
    let mut urls = 0;
    for line in template.split_inclusive('\n') {
        if line.starts_with("  sha256:") {
            continue;
        }
        if line.starts_with("  url:") {
            urls += 1;
            out.push_str(&format!("  url: {url}\n  sha256: {sha256}\n"));
        } else {
            out.push_str(line);
        }
    }
    if urls != 1 {
        return Err(format!("{TEMPLATE}: expected one `url:` line in spec, found {urls}"));
    }
    let one = |text: &str, what: &str| -> Result<Value> {
        let mut docs = k8s::documents(text).map_err(|e| format!("{what}: {e}"))?;
        match (docs.pop(), docs.is_empty()) {
            (Some(doc), true) => Ok(doc),
            _ => Err(format!("{what}: expected one document")),
        }
    };
    let mut expected = one(template, TEMPLATE)?;
    let rendered = one(&out, "rendered WasmPlugin")?;
    if let Some(spec) = expected.get_mut("spec").and_then(Value::as_mapping_mut) {
        spec.insert("url".into(), url.into());
        spec.insert("sha256".into(), sha256.into());
    }
    if rendered != expected {
        return Err(format!("{TEMPLATE}: the rendered WasmPlugin differs beyond spec.url and spec.sha256"));
    }
    let errors = k8s::check_manifest(&rendered);
    if !errors.is_empty() {
        return Err(format!("rendered WasmPlugin: {}", errors.join("; ")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::tests::{gunzip, untar};
    use serde_json::Value as Json;

    fn template() -> String {
        std::fs::read_to_string(crate::root().join(TEMPLATE)).unwrap()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("veil-xtask-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// Reads the layout as a registry client would: index.json → manifest → config and
    /// layer, each blob at its digest with its size; the layer's plugin.wasm must be
    /// `wasm`. Returns the manifest digest.
    fn check_layout(tar: &[u8], wasm: &[u8], tag: &str) -> String {
        let entries = untar(tar);
        let file = |name: &str| -> &[u8] {
            let entry = entries.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!((entry.kind, entry.mtime), (b'0', 0), "{name}");
            &entry.data
        };
        let json = |bytes: &[u8]| -> Json { serde_json::from_slice(bytes).unwrap() };
        // A descriptor's blob: present under blobs/sha256/, with that sha256 and size.
        let blob = |descriptor: &Json, media_type: &str| -> Vec<u8> {
            assert_eq!(descriptor["mediaType"], media_type);
            let digest = descriptor["digest"].as_str().unwrap();
            let hex = digest.strip_prefix("sha256:").unwrap();
            let bytes = file(&format!("blobs/sha256/{hex}")).to_vec();
            assert_eq!(oci::sha256_hex(&bytes), hex, "{digest}");
            assert_eq!(descriptor["size"].as_u64(), Some(bytes.len() as u64), "{digest}");
            bytes
        };
        assert_eq!(json(file("oci-layout")), serde_json::json!({"imageLayoutVersion": "1.0.0"}));
        let index = json(file("index.json"));
        assert_eq!(index["schemaVersion"], 2);
        assert_eq!(index["mediaType"], oci::INDEX_MEDIA_TYPE);
        let manifests = index["manifests"].as_array().unwrap();
        assert_eq!(manifests.len(), 1);
        assert_eq!(manifests[0]["annotations"][oci::REF_NAME_ANNOTATION], tag);
        let manifest_bytes = blob(&manifests[0], oci::MANIFEST_MEDIA_TYPE);
        let manifest = json(&manifest_bytes);
        assert_eq!(manifest["schemaVersion"], 2);
        assert_eq!(manifest["mediaType"], oci::MANIFEST_MEDIA_TYPE);
        assert_eq!(manifest["annotations"][oci::VARIANT_ANNOTATION.0], oci::VARIANT_ANNOTATION.1);
        let config = json(&blob(&manifest["config"], oci::CONFIG_MEDIA_TYPE));
        let layers = manifest["layers"].as_array().unwrap();
        assert_eq!(layers.len(), 1, "the compat variant has one layer");
        let layer = gunzip(&blob(&layers[0], oci::LAYER_MEDIA_TYPE));
        assert_eq!(config["rootfs"]["diff_ids"], serde_json::json!([format!("sha256:{}", oci::sha256_hex(&layer))]));
        let inside = untar(&layer);
        assert_eq!(inside.len(), 1);
        assert_eq!(inside[0].name, oci::WASM_FILE);
        assert!(inside[0].data == wasm, "plugin.wasm is not the module byte for byte");
        // Nothing else in the layout: the two files, the two directories, the three blobs.
        let mut names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
        names.sort();
        let mut blobs: Vec<String> = [&manifests[0], &manifest["config"], &layers[0]]
            .map(|d| format!("blobs/sha256/{}", d["digest"].as_str().unwrap().trim_start_matches("sha256:")))
            .into();
        blobs.sort();
        let expected: Vec<String> = ["blobs/", "blobs/sha256/"]
            .map(String::from)
            .into_iter()
            .chain(blobs)
            .chain(["index.json", "oci-layout"].map(String::from))
            .collect();
        assert_eq!(names, expected);
        format!("sha256:{}", oci::sha256_hex(&manifest_bytes))
    }

    /// Packages `wasm` twice into fresh directories and checks both outputs.
    fn package_and_check(wasm: &[u8], name: &str) -> String {
        let template = template();
        let (one, two) = (temp_dir(&format!("{name}-1")), temp_dir(&format!("{name}-2")));
        let first = package(wasm, "0.1.0", &template, None, &one).unwrap();
        let second =
            package(wasm, "0.1.0", &template, Some("oci://registry.example.org:5000/team/veil"), &two).unwrap();
        let tar = std::fs::read(&first.tar).unwrap();
        assert_eq!(first.tar, one.join("veil-0.1.0.tar"));
        assert_eq!(tar, std::fs::read(&second.tar).unwrap(), "two runs, two different images");
        let digest = check_layout(&tar, wasm, "0.1.0");
        assert_eq!(digest, first.image.manifest.digest());
        // The rendered WasmPlugin names the image and carries the manifest digest.
        let hex = digest.strip_prefix("sha256:").unwrap();
        for (done, url) in [
            (&first, "oci://registry.example.com/veil:0.1.0"),
            (&second, "oci://registry.example.org:5000/team/veil:0.1.0"),
        ] {
            let plugin = k8s::documents(&std::fs::read_to_string(&done.plugin).unwrap()).unwrap().remove(0);
            assert_eq!(plugin["spec"]["sha256"].as_str(), Some(hex));
            assert_eq!(plugin["spec"]["url"].as_str(), Some(url));
            assert_eq!(k8s::check_manifest(&plugin), Vec::<String>::new());
        }
        let _ = std::fs::remove_dir_all(one);
        let _ = std::fs::remove_dir_all(two);
        digest
    }

    #[test]
    fn a_synthetic_module_packages_into_a_layout_istio_reads() {
        let wasm = b"\0asm\x01\0\0\0 a synthetic module, not veil".repeat(100);
        let digest = package_and_check(&wasm, "synthetic");
        let other = package_and_check(&[&wasm[..], b"!"].concat(), "synthetic-other");
        assert_ne!(digest, other);
    }

    /// The real module, when it is built (`cargo xtask test` builds it first).
    #[test]
    fn the_built_veil_wasm_packages_into_a_layout_istio_reads() {
        let path = crate::wasm_path();
        let Ok(wasm) = std::fs::read(&path) else {
            eprintln!("{} is not built: only the synthetic module was packaged", path.display());
            return;
        };
        let digest = package_and_check(&wasm, "veil");
        eprintln!("veil.wasm ({} bytes): manifest {digest}", wasm.len());
    }

    #[test]
    fn the_version_is_the_root_packages() {
        let root = std::fs::read_to_string(crate::root().join("Cargo.toml")).unwrap();
        let v = version(&root).unwrap();
        assert!(v.split('.').count() == 3 && v.split('.').all(|p| p.parse::<u32>().is_ok()), "{v}");
        let text = "[workspace.package]\nversion = \"9.9.9\"\n[package]\nname = \"x\"\nversion = \"1.2.3\"\n";
        assert_eq!(version(text).unwrap(), "1.2.3");
        assert!(version("[package]\nname = \"x\"\n").is_err());
    }

    #[test]
    fn the_repository_loses_its_tag_and_keeps_a_registry_port() {
        assert_eq!(checked_repository("oci://registry.example.com/veil:0.1.0").unwrap(), "registry.example.com/veil");
        assert_eq!(checked_repository("localhost:5000/a/veil").unwrap(), "localhost:5000/a/veil");
        assert_eq!(checked_repository("veil").unwrap(), "veil");
        assert!(checked_repository("r.example/veil@sha256:00").is_err());
        assert!(checked_repository("r.example/").is_err());
    }

    #[test]
    fn rendering_changes_only_url_and_sha256_and_keeps_the_comments() {
        let template = template();
        let hex = "ab".repeat(32);
        let out = render_wasmplugin(&template, "oci://r.example/veil:2.0.0", &hex).unwrap();
        assert!(out.contains(&format!("  url: oci://r.example/veil:2.0.0\n  sha256: {hex}\n")));
        let comments = |t: &str| t.lines().filter(|l| l.starts_with('#')).count();
        assert_eq!(comments(&out), comments(&template));
        // Rendering its own output again replaces, never duplicates, the sha256.
        let again = render_wasmplugin(&out, "oci://r.example/veil:2.0.1", &"cd".repeat(32)).unwrap();
        assert_eq!(again.matches("  sha256: ").count(), 1);
        assert!(render_wasmplugin(&template, "oci://r.example/veil:2.0.0", "sha256:abc").is_err());
        assert!(render_wasmplugin(&template.replace("  url: ", "  uri: "), "oci://r/v:1", &hex).is_err());
        let doubled = template.replacen("  url: ", "  url: oci://x/y:1\n  url: ", 1);
        assert!(render_wasmplugin(&doubled, "oci://r/v:1", &hex).is_err());
    }
}
