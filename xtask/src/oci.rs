//! The OCI image of `veil.wasm` that Istio's `WasmPlugin` pulls (`url: oci://…`), as an
//! OCI image layout in one tar file (`oci-layout`, `index.json`, `blobs/sha256/…`).
//!
//! The format is the *compat* variant of the Wasm image specification (solo.io's
//! `spec-compat.md`): an ordinary OCI image whose single layer, of media type
//! `application/vnd.oci.image.layer.v1.tar+gzip`, is a tar holding `plugin.wasm`, and
//! whose manifest carries the annotation `module.wasm.image/variant: compat`. The Istio
//! agent's image fetcher (istio/istio `pkg/wasm/imagefetcher.go`) tries that variant
//! first: it takes the image's last layer, requires that media type, gunzips and untars
//! it and returns the file whose base name is `plugin.wasm`. The other variant it reads,
//! the OCI-artifact one (`application/vnd.module.wasm.content.layer.v1+wasm`), must
//! have exactly two layers there and uses media types that some registries and mirrors
//! refuse; the compat image is what every registry, `crane`, `skopeo` and `oras` copy
//! as it is.
//!
//! Everything is deterministic: no timestamps (tar mtimes 0, gzip mtime 0, no `created`
//! in the config), fixed owners and modes, fixed entry order, JSON with a fixed key
//! order. The same `veil.wasm` therefore always gives the same manifest digest, the
//! value the `WasmPlugin`'s `sha256` field must hold: for an `oci://` url the agent
//! compares it with the digest of the manifest it pulled (`pkg/wasm/cache.go`), not
//! with a hash of the module.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder};
use serde_json::json;
use sha2::{Digest, Sha256};

pub const INDEX_MEDIA_TYPE: &str = "application/vnd.oci.image.index.v1+json";
pub const MANIFEST_MEDIA_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
pub const CONFIG_MEDIA_TYPE: &str = "application/vnd.oci.image.config.v1+json";
pub const LAYER_MEDIA_TYPE: &str = "application/vnd.oci.image.layer.v1.tar+gzip";
/// The file in the layer that Istio's agent loads (found by base name).
pub const WASM_FILE: &str = "plugin.wasm";
/// The compat variant's manifest annotation, required with the OCI layer media type.
pub const VARIANT_ANNOTATION: (&str, &str) = ("module.wasm.image/variant", "compat");
/// `index.json`'s name for the image: `skopeo copy oci-archive:FILE:TAG` and
/// `oras cp --from-oci-layout DIR:TAG` select it by this annotation.
pub const REF_NAME_ANNOTATION: &str = "org.opencontainers.image.ref.name";

type Result<T> = std::result::Result<T, String>;

/// A content-addressed blob of the layout.
pub struct Blob {
    pub media_type: &'static str,
    pub bytes: Vec<u8>,
}

impl Blob {
    /// `sha256:<64 hex digits>`, the blob's name in the layout and in descriptors.
    pub fn digest(&self) -> String {
        format!("sha256:{}", sha256_hex(&self.bytes))
    }

    fn descriptor(&self) -> serde_json::Value {
        json!({"mediaType": self.media_type, "digest": self.digest(), "size": self.bytes.len()})
    }
}

/// The image: its config, its one layer and the manifest naming both.
pub struct Image {
    pub tag: String,
    pub config: Blob,
    pub layer: Blob,
    pub manifest: Blob,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The image of `wasm`, tagged `tag` in the layout's index.
pub fn image(wasm: &[u8], tag: &str) -> Result<Image> {
    check_tag(tag)?;
    if wasm.get(..4) != Some(b"\0asm".as_slice()) {
        return Err("not a wasm module (no \\0asm magic)".into());
    }
    let mut layer_tar = Vec::with_capacity(wasm.len() + 2048);
    tar_file(&mut layer_tar, WASM_FILE, wasm)?;
    tar_finish(&mut layer_tar);
    let diff_id = format!("sha256:{}", sha256_hex(&layer_tar));
    let layer = Blob { media_type: LAYER_MEDIA_TYPE, bytes: gzip(&layer_tar)? };
    // The OCI image config's required fields; `wasm`/`wasip1` are the Go names of the
    // target (the spec takes GOARCH/GOOS values). Nothing in the pull path reads them.
    let config = json!({
        "architecture": "wasm",
        "os": "wasip1",
        "config": {},
        "rootfs": {"type": "layers", "diff_ids": [diff_id]},
    });
    let config = Blob { media_type: CONFIG_MEDIA_TYPE, bytes: to_json(&config)? };
    let manifest = json!({
        "schemaVersion": 2,
        "mediaType": MANIFEST_MEDIA_TYPE,
        "config": config.descriptor(),
        "layers": [layer.descriptor()],
        "annotations": {
            VARIANT_ANNOTATION.0: VARIANT_ANNOTATION.1,
            "org.opencontainers.image.title": "veil",
            "org.opencontainers.image.version": tag,
        },
    });
    let manifest = Blob { media_type: MANIFEST_MEDIA_TYPE, bytes: to_json(&manifest)? };
    Ok(Image { tag: tag.to_string(), config, layer, manifest })
}

impl Image {
    /// The OCI image layout as one tar: `oci-layout`, `index.json` (the manifest, named
    /// by the tag), then the blobs (config, layer, manifest) under `blobs/sha256/`.
    pub fn layout_tar(&self) -> Result<Vec<u8>> {
        let index = json!({
            "schemaVersion": 2,
            "mediaType": INDEX_MEDIA_TYPE,
            "manifests": [{
                "mediaType": MANIFEST_MEDIA_TYPE,
                "digest": self.manifest.digest(),
                "size": self.manifest.bytes.len(),
                "annotations": {REF_NAME_ANNOTATION: self.tag},
            }],
        });
        let mut out = Vec::with_capacity(self.layer.bytes.len() + 16 * 1024);
        tar_file(&mut out, "oci-layout", &to_json(&json!({"imageLayoutVersion": "1.0.0"}))?)?;
        tar_file(&mut out, "index.json", &to_json(&index)?)?;
        tar_dir(&mut out, "blobs/")?;
        tar_dir(&mut out, "blobs/sha256/")?;
        for blob in [&self.config, &self.layer, &self.manifest] {
            tar_file(&mut out, &format!("blobs/sha256/{}", sha256_hex(&blob.bytes)), &blob.bytes)?;
        }
        tar_finish(&mut out);
        Ok(out)
    }
}

/// An OCI tag: `[A-Za-z0-9_][A-Za-z0-9._-]{0,127}` (distribution spec).
fn check_tag(tag: &str) -> Result<()> {
    let mut chars = tag.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if first_ok && rest_ok && tag.len() <= 128 {
        Ok(())
    } else {
        Err(format!("`{tag}` is not a valid OCI tag"))
    }
}

fn to_json(value: &serde_json::Value) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| e.to_string())
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    // mtime 0 and no file name in the header; flate2 writes OS 255 ("unknown").
    let mut encoder: GzEncoder<Vec<u8>> = GzBuilder::new().mtime(0).write(Vec::new(), Compression::best());
    encoder.write_all(bytes).map_err(|e| e.to_string())?;
    encoder.finish().map_err(|e| e.to_string())
}

const BLOCK: usize = 512;

fn tar_file(out: &mut Vec<u8>, name: &str, data: &[u8]) -> Result<()> {
    tar_header(out, name, b'0', 0o644, data.len())?;
    out.extend_from_slice(data);
    out.resize(out.len().next_multiple_of(BLOCK), 0);
    Ok(())
}

fn tar_dir(out: &mut Vec<u8>, name: &str) -> Result<()> {
    tar_header(out, name, b'5', 0o755, 0)
}

/// The end of an archive: two zero blocks.
fn tar_finish(out: &mut Vec<u8>) {
    out.resize(out.len() + 2 * BLOCK, 0);
}

/// A POSIX ustar header: owner 0:0 without names, mtime 0.
fn tar_header(out: &mut Vec<u8>, name: &str, kind: u8, mode: u32, size: usize) -> Result<()> {
    if name.len() >= 100 || !name.is_ascii() {
        return Err(format!("tar entry name `{name}` does not fit a ustar header"));
    }
    // 11 octal digits: 8 GiB.
    if size as u64 >= 1 << 33 {
        return Err(format!("tar entry `{name}` is too large ({size} bytes)"));
    }
    let mut header = [0u8; BLOCK];
    put(&mut header, 0, name.as_bytes());
    put(&mut header, 100, format!("{mode:07o}\0").as_bytes());
    put(&mut header, 108, b"0000000\0"); // uid
    put(&mut header, 116, b"0000000\0"); // gid
    put(&mut header, 124, format!("{size:011o}\0").as_bytes());
    put(&mut header, 136, b"00000000000\0"); // mtime
    put(&mut header, 148, b"        "); // the checksum counts its own field as spaces
    put(&mut header, 156, &[kind]);
    put(&mut header, 257, b"ustar\0");
    put(&mut header, 263, b"00");
    put(&mut header, 329, b"0000000\0"); // devmajor
    put(&mut header, 337, b"0000000\0"); // devminor
    let sum: u32 = header.iter().map(|&b| u32::from(b)).sum();
    put(&mut header, 148, format!("{sum:06o}\0 ").as_bytes());
    out.extend_from_slice(&header);
    Ok(())
}

fn put(header: &mut [u8; BLOCK], at: usize, field: &[u8]) {
    if let Some(slot) = header.get_mut(at..at + field.len()) {
        slot.copy_from_slice(field);
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use std::io::Read;

    /// One entry of a tar, as read back by [`untar`].
    pub struct Entry {
        pub name: String,
        pub kind: u8,
        pub mode: u32,
        pub mtime: u64,
        pub data: Vec<u8>,
    }

    fn octal(field: &[u8]) -> u64 {
        let text = std::str::from_utf8(field).unwrap().trim_matches(|c| c == '\0' || c == ' ');
        u64::from_str_radix(text, 8).unwrap()
    }

    /// Reads a ustar archive, checking each header's checksum, the zero-padding and
    /// the two-block end marker.
    pub fn untar(bytes: &[u8]) -> Vec<Entry> {
        assert_eq!(bytes.len() % BLOCK, 0, "an archive is whole blocks");
        let mut entries = Vec::new();
        let mut at = 0;
        loop {
            let header = &bytes[at..at + BLOCK];
            if header.iter().all(|&b| b == 0) {
                assert!(bytes[at..].iter().all(|&b| b == 0), "data after the end marker");
                assert!(bytes.len() - at >= 2 * BLOCK, "the end marker is two zero blocks");
                return entries;
            }
            let stored = octal(&header[148..156]);
            let sum: u64 =
                header.iter().enumerate().map(|(i, &b)| if (148..156).contains(&i) { 32 } else { u64::from(b) }).sum();
            assert_eq!(stored, sum, "header checksum at {at}");
            assert_eq!(&header[257..263], b"ustar\0");
            let name_len = header[..100].iter().position(|&b| b == 0).unwrap_or(100);
            let size = octal(&header[124..136]) as usize;
            let data = bytes[at + BLOCK..at + BLOCK + size].to_vec();
            let padded = size.next_multiple_of(BLOCK);
            assert!(bytes[at + BLOCK + size..at + BLOCK + padded].iter().all(|&b| b == 0));
            entries.push(Entry {
                name: String::from_utf8(header[..name_len].to_vec()).unwrap(),
                kind: header[156],
                mode: octal(&header[100..108]) as u32,
                mtime: octal(&header[136..148]),
                data,
            });
            at += BLOCK + padded;
        }
    }

    pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
        out
    }

    const WASM: &[u8] = b"\0asm\x01\0\0\0synthetic module body";

    #[test]
    fn the_layer_is_a_gzipped_tar_of_plugin_wasm_byte_for_byte() {
        let image = image(WASM, "1.2.3").unwrap();
        let layer = gunzip(&image.layer.bytes);
        let entries = untar(&layer);
        assert_eq!(entries.len(), 1);
        let entry = &entries[0];
        assert_eq!((entry.name.as_str(), entry.kind, entry.mode, entry.mtime), (WASM_FILE, b'0', 0o644, 0));
        assert_eq!(entry.data, WASM);
        // gzip header: no mtime, no file name (FLG 0), OS unknown.
        assert_eq!(&image.layer.bytes[3..10], &[0, 0, 0, 0, 0, 2, 255]);
        let config: serde_json::Value = serde_json::from_slice(&image.config.bytes).unwrap();
        assert_eq!(config["rootfs"]["diff_ids"][0], format!("sha256:{}", sha256_hex(&layer)));
    }

    #[test]
    fn the_same_module_gives_the_same_bytes_and_another_module_another_digest() {
        let one = image(WASM, "1.2.3").unwrap();
        let again = image(WASM, "1.2.3").unwrap();
        assert_eq!(one.layout_tar().unwrap(), again.layout_tar().unwrap());
        assert_eq!(one.manifest.digest(), again.manifest.digest());
        let other = image(b"\0asm\x01\0\0\0another body", "1.2.3").unwrap();
        assert_ne!(one.manifest.digest(), other.manifest.digest());
        assert_ne!(one.layer.digest(), other.layer.digest());
    }

    #[test]
    fn what_is_not_a_module_or_a_tag_is_refused() {
        assert!(image(b"PK\x03\x04 a zip", "1.0.0").is_err());
        assert!(image(WASM, "").is_err());
        assert!(image(WASM, "-x").is_err());
        assert!(image(WASM, "a/b").is_err());
        assert!(image(WASM, &"9".repeat(129)).is_err());
        assert!(image(WASM, "v1.0.0_rc-1").is_ok());
    }

    #[test]
    fn names_that_do_not_fit_a_ustar_header_are_refused() {
        let mut out = Vec::new();
        assert!(tar_file(&mut out, &"n".repeat(100), b"").is_err());
        assert!(tar_file(&mut out, &"n".repeat(99), b"x").is_ok());
        assert_eq!(untar(&[out, vec![0; 2 * BLOCK]].concat())[0].name.len(), 99);
    }
}
