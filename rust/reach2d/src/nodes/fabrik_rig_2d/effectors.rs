//! `FabrikRig2D`'s effectors as scripts and scenes hand them over. The node holds them as node arrays
//! (`effector_tips`, `effector_targets`), like the other nodes hold their bones and targets; scenes and scripts from
//! before (issue 31) give node paths relative to the rig (`tip_bones`, `targets`), which wait here until the rig is
//! in the tree to be resolved; and `set()` with an untyped array (a script that does not know the node's class) is
//! converted entry by entry. Nothing here runs per frame.

use godot::classes::{Bone2D, Node, Node2D};
use godot::prelude::*;

/// `tip_bones` or `targets` as node paths (relative to the rig), not resolved yet.
#[derive(Default)]
pub struct PendingPaths {
    tips: Option<Array<NodePath>>,
    targets: Option<Array<NodePath>>,
}

/// Which of the rig's effector arrays a value is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Tips,
    Targets,
}

/// The effector arrays resolved from node paths, for the node to take.
#[derive(Default)]
pub struct Resolved {
    pub tips: Option<Array<Gd<Bone2D>>>,
    pub targets: Option<Array<Gd<Node2D>>>,
}

impl PendingPaths {
    /// Holds `paths` for `side` until they resolve (an earlier set of paths for it is dropped).
    pub fn hold(&mut self, side: Side, paths: Array<NodePath>) {
        match side {
            Side::Tips => self.tips = Some(paths),
            Side::Targets => self.targets = Some(paths),
        }
    }

    /// Drops the paths held for `side` (a node array was set for it).
    pub fn drop_side(&mut self, side: Side) {
        match side {
            Side::Tips => self.tips = None,
            Side::Targets => self.targets = None,
        }
    }

    /// The paths held for `side`, if any.
    pub fn held(&self, side: Side) -> Option<&Array<NodePath>> {
        match side {
            Side::Tips => self.tips.as_ref(),
            Side::Targets => self.targets.as_ref(),
        }
    }

    /// `true` while paths wait.
    pub fn waiting(&self) -> bool {
        self.tips.is_some() || self.targets.is_some()
    }

    /// Resolves the held paths relative to `rig` (in the tree): each side whose every path leads to a node of its
    /// class comes back as a node array and stops waiting; a side with a path that leads nowhere (yet) keeps
    /// waiting, and `Err(index)` names the first such path of the tips, else of the targets.
    pub fn resolve(&mut self, rig: &Gd<Node>) -> (Resolved, Result<(), (Side, usize)>) {
        let mut resolved = Resolved::default();
        let mut missing = Ok(());
        if let Some(paths) = &self.tips {
            match resolve_all::<Bone2D>(rig, paths) {
                Ok(nodes) => resolved.tips = Some(nodes),
                Err(k) => missing = Err((Side::Tips, k)),
            }
        }
        if let Some(paths) = &self.targets {
            match resolve_all::<Node2D>(rig, paths) {
                Ok(nodes) => resolved.targets = Some(nodes),
                Err(k) if missing.is_ok() => missing = Err((Side::Targets, k)),
                Err(_) => {}
            }
        }
        if resolved.tips.is_some() {
            self.tips = None;
        }
        if resolved.targets.is_some() {
            self.targets = None;
        }
        (resolved, missing)
    }
}

/// Every path of `paths` resolved relative to `rig` as a `T`, or the index of the first that leads to none (an
/// empty path is unset, not the rig itself).
fn resolve_all<T: Inherits<Node>>(rig: &Gd<Node>, paths: &Array<NodePath>) -> Result<Array<Gd<T>>, usize> {
    let mut nodes = Array::new();
    for (k, path) in paths.iter_shared().enumerate() {
        let node = (!path.is_empty()).then(|| rig.get_node_or_null(&path)).flatten();
        nodes.push(&node.and_then(|n| n.try_cast::<T>().ok()).ok_or(k)?);
    }
    Ok(nodes)
}

/// The paths from `rig` to each node of `nodes` (an empty path for an entry that is null, freed or shares no
/// ancestor with the rig): what `tip_bones` and `targets` read as now.
pub fn paths_to(rig: &Gd<Node>, nodes: &AnyArray) -> Array<NodePath> {
    let mut paths = Array::new();
    for entry in nodes.iter_shared() {
        let path = entry
            .try_to::<Gd<Node>>()
            .ok()
            .filter(|node| shares_ancestor(rig, node))
            .map_or_else(NodePath::default, |node| rig.get_path_to(&node));
        paths.push(&path);
    }
    paths
}

fn shares_ancestor(a: &Gd<Node>, b: &Gd<Node>) -> bool {
    let top = |node: &Gd<Node>| {
        let mut top = node.clone();
        while let Some(parent) = top.get_parent() {
            top = parent;
        }
        top.instance_id()
    };
    top(a) == top(b)
}

/// A value `set()` gave one of the effector properties, as the typed value its setter takes.
pub enum Given {
    Paths(Side, Array<NodePath>),
    Weights(PackedFloat32Array),
}

/// Converts an untyped array `set()` gave `property` (one of the effector properties) entry by entry: NodePaths or
/// Strings for `tip_bones`/`targets`, numbers for `effector_weights` (`effector_tips`/`effector_targets` are checked
/// by their setters, `node_property.rs`). `Err` holds the message of the first entry that is none of those (or a value that is no
/// array). `None` when `property` is none of them, or the value is already typed (Godot's own route reaches the
/// typed setter).
pub fn convert_untyped(property: &StringName, value: &Variant) -> Option<Result<Given, String>> {
    // Godot asks `_set` about every property set on the node (an animated `weight` every frame): compare without a
    // Rust allocation.
    let text = GString::from(property);
    let chars = text.chars();
    let names = ["tip_bones", "targets", "effector_weights"];
    let name = names.into_iter().find(|name| chars.iter().copied().eq(name.chars()))?;
    let typed = value.get_type() == VariantType::ARRAY && value.try_to::<VarArray>().is_err();
    if typed || value.get_type() == VariantType::PACKED_FLOAT32_ARRAY {
        return None;
    }
    let Ok(entries) = value.try_to::<VarArray>() else {
        return Some(Err(format!("{name} must be an Array, not {value}; keeping the current {name}.")));
    };
    let refused = |index: usize, entry: &Variant, wanted: &str| {
        format!("{name}[{index}] = {entry} is not {wanted}; keeping the current {name}.")
    };
    let given = match name {
        "effector_weights" => {
            let mut weights = PackedFloat32Array::new();
            for (index, entry) in entries.iter_shared().enumerate() {
                match entry.try_to::<f64>().or_else(|_| entry.try_to::<i64>().map(|i| i as f64)) {
                    Ok(number) => weights.push(number as f32),
                    Err(_) => return Some(Err(refused(index, &entry, "a number"))),
                }
            }
            Given::Weights(weights)
        }
        _ => {
            let side = if name == "tip_bones" { Side::Tips } else { Side::Targets };
            let mut paths = Array::<NodePath>::new();
            for (index, entry) in entries.iter_shared().enumerate() {
                let path = entry
                    .try_to::<NodePath>()
                    .or_else(|_| entry.try_to::<GString>().map(|s| NodePath::from(&s)))
                    .or_else(|_| entry.try_to::<StringName>().map(|s| NodePath::from(&GString::from(&s))));
                match path {
                    Ok(path) => paths.push(&path),
                    Err(_) => return Some(Err(refused(index, &entry, "a node path (use get_path_to(node))"))),
                }
            }
            Given::Paths(side, paths)
        }
    };
    Some(Ok(given))
}
