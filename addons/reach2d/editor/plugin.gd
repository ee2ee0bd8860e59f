@tool
extends EditorPlugin
## The optional Reach2D editor tools. The IK nodes come from the GDExtension and work without this plugin; it only
## adds the inspector's "Bake IK to Animation" section (editor/bake_inspector.gd).

const BakeInspector := preload("res://addons/reach2d/editor/bake_inspector.gd")

var _inspector: EditorInspectorPlugin


func _enter_tree() -> void:
	_inspector = BakeInspector.new()
	_inspector.undo_redo = get_undo_redo()
	add_inspector_plugin(_inspector)


func _exit_tree() -> void:
	remove_inspector_plugin(_inspector)
	_inspector = null
