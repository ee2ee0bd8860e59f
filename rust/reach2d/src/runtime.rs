//! Running one node: what every node does around its own solve (`frame`: update modes, reporting once, saving,
//! warnings), the chain setup check (`setup`), the per-bone angle limits (`limits`), the checked setters
//! (`checked`) and object properties (`node_property`), the character's weight (`character_link`) and the editor
//! gizmo (`gizmo`). Below the node classes and the batch; above the bones' I/O.

pub mod character_link;
pub mod checked;
pub mod frame;
pub mod gizmo;
pub mod limits;
pub mod node_limits;
pub mod node_property;
pub mod setup;
