@tool
extends EditorPlugin
## The optional Reach2D editor tools. The IK nodes come from the GDExtension and work without this plugin; it only
## adds inspector sections: "Bake IK to Animation" on the IK nodes (editor/bake_inspector.gd) and "Convert
## Modifications to Reach2D Nodes" on a Skeleton2D with a modification stack (editor/convert_inspector.gd).

const BakeInspector := preload("res://addons/reach2d/editor/bake_inspector.gd")
const ConvertInspector := preload("res://addons/reach2d/editor/convert_inspector.gd")

var _inspectors: Array[EditorInspectorPlugin] = []


func _enter_tree() -> void:
	for inspector: EditorInspectorPlugin in [BakeInspector.new(), ConvertInspector.new()]:
		inspector.undo_redo = get_undo_redo()
		add_inspector_plugin(inspector)
		_inspectors.append(inspector)


func _exit_tree() -> void:
	for inspector in _inspectors:
		remove_inspector_plugin(inspector)
	_inspectors.clear()
