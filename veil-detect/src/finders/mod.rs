//! Hand-written finders: what a regex cannot say, or says too slowly. Each is named by
//! a rule of the catalog (`Finder`, `WindowFinder`, a gate's test) and reads bytes only;
//! none knows the engine.

pub mod address;
pub mod assign;
pub mod card;
pub mod cjkname;
pub mod digits;
pub mod ip;
pub mod label;
pub mod namehash;
pub mod names;
pub mod nametable;
pub mod person;
pub mod phone;
pub mod windows;
