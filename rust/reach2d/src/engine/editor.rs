//! Whether the code runs in the Godot editor.

use godot::classes::Engine;
use godot::obj::Singleton;

/// `true` in the editor. Fixed for the life of the process (a game run from the editor is another process), so
/// it is asked once instead of on every solve.
pub fn in_editor() -> bool {
    static IN_EDITOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *IN_EDITOR.get_or_init(|| Engine::singleton().is_editor_hint())
}
