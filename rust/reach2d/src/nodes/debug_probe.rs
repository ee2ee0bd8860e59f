//! `Reach2DDebug`: the counters and switches Reach2D's own tests and benchmarks read through Godot (debug and
//! bench builds only).

use godot::prelude::*;

use crate::debug::alloc;

/// Diagnostics for Reach2D's own tests and benchmarks; present in debug and bench builds of the extension only.
#[derive(GodotClass)]
#[class(init, base = Object)]
pub struct Reach2DDebug {}

#[godot_api]
impl Reach2DDebug {
    /// The class documentation godot-rust gives the editor's help (one XML document per class, from the doc comments,
    /// sorted), for `cargo xtask reference`: Godot's [code]--doctool[/code] dumps the classes' members but not these
    /// descriptions.
    #[func]
    pub fn class_docs_xml() -> PackedStringArray {
        let mut docs: Vec<String> = godot::docs::__gather_xml_docs().collect();
        docs.sort();
        docs.iter().map(|xml| GString::from(xml.as_str())).collect()
    }

    /// How many heap allocations the extension's Rust code has made since it was loaded (debug and bench builds only).
    #[func]
    pub fn rust_heap_allocations() -> i64 {
        alloc::allocations() as i64
    }

    /// How many of those were made inside the nodes' own per-frame code (process callbacks and [code]solve()[/code]:
    /// reading the bones, solving, writing rotations), as opposed to the godot-rust call layer around it.
    #[func]
    pub fn node_heap_allocations() -> i64 {
        alloc::allocations_in_nodes() as i64
    }

    /// [code]true[/code] when the address Reach2D takes from godot-rust for [param object] (to prefetch it) is the
    /// engine's own pointer to it: a check that a godot-rust update did not change that hidden API.
    #[func]
    pub fn object_address_is_engine_object(object: Gd<Object>) -> bool {
        crate::engine::prefetch::address_is_engine_object(&object)
    }

    /// [code]true[/code] makes every [SpringChain2D] answer its colliders' queries with the physics engine's
    /// (ray and rest-info queries per bone), as before the local narrow phase; [code]false[/code] (the default)
    /// lets the local narrow phase answer. For tests and benchmarks comparing the two.
    #[func]
    pub fn set_spring_engine_queries(on: bool) {
        crate::physics::queries::force_engine_queries(on);
    }

    /// How many [SpringChain2D] steps with something near had their colliders answered by the local narrow phase
    /// since the library was loaded.
    #[func]
    pub fn spring_local_steps() -> i64 {
        crate::physics::queries::query_counts()[0] as i64
    }

    /// How many such steps the physics engine answered (forced, or a shape the local narrow phase cannot hold).
    #[func]
    pub fn spring_engine_steps() -> i64 {
        crate::physics::queries::query_counts()[1] as i64
    }

    /// How many single queries of locally answered steps went to the engine (they reached outside the bounding
    /// circle the local shapes were gathered in).
    #[func]
    pub fn spring_engine_queries() -> i64 {
        crate::physics::queries::query_counts()[2] as i64
    }

    /// How many shapes the local narrow phase has read from the physics server (one bounding query per chain and
    /// step returns them).
    #[func]
    pub fn spring_shapes_read() -> i64 {
        crate::physics::queries::query_counts()[3] as i64
    }

    /// How many setup checks ran in full (the structural part included) since the library was loaded.
    #[func]
    pub fn full_setup_checks() -> i64 {
        crate::io::tree_watch::check_counts()[0] as i64
    }

    /// How many setup checks skipped their structural part (the setup was verified, and the tree watch heard
    /// nothing that could break it) since the library was loaded.
    #[func]
    pub fn fast_setup_checks() -> i64 {
        crate::io::tree_watch::check_counts()[1] as i64
    }

    /// [code]true[/code] breaks the tree watch on purpose (every pass trusts it, it never moves its epoch, no periodic
    /// full check), for tests that show what a broken watch would miss; [code]false[/code] (the default) mends it.
    #[func]
    pub fn break_tree_watch(on: bool) {
        crate::io::tree_watch::break_on_purpose(on);
    }

    /// How many bone rotations the nodes have written ([code]set_rotation[/code] calls) since the library was loaded;
    /// a rotation the bone already holds is not written.
    #[func]
    pub fn bone_writes() -> i64 {
        alloc::bone_writes() as i64
    }
}
