extends "res://lib/test_case.gd"
## The extension loads in a real Godot and registers its classes, with the documented API.

const COMMON_PROPERTIES := ["enabled", "weight", "update_mode", "editor_preview", "last_error", "last_iterations"]


func test_classes_are_registered_as_node2d() -> void:
	for name in Nodes.ALL + Nodes.PATHS:
		expect(ClassDB.class_exists(name), "%s is registered" % name)
		expect(ClassDB.is_parent_class(name, "Node2D"), "%s extends Node2D" % name)
		expect(ClassDB.can_instantiate(name), "%s can be instantiated" % name)


func test_common_properties_and_methods() -> void:
	for name in Nodes.ALL + Nodes.PATHS:
		var node: Node2D = ClassDB.instantiate(name)
		var props := {}
		for p in node.get_property_list():
			props[p["name"]] = p
		for prop in COMMON_PROPERTIES + Nodes.node_slots(name):
			expect(props.has(prop), "%s has property %s" % [name, prop])
		for method in ["solve", "set_angle_limits", "clear_angle_limits", "has_angle_limits", "get_setup_warning", "get_bone_count"]:
			expect(node.has_method(method), "%s has method %s" % [name, method])
		expect(node.enabled == true, "%s.enabled defaults to true" % name)
		expect_near(node.weight, 1.0, 0.0, "%s.weight default" % name)
		expect(node.update_mode == 0, "%s.update_mode defaults to process" % name)
		expect_near(node.last_error, -1.0, 0.0, "%s.last_error before any solve" % name)
		expect(node.last_iterations == 0, "%s.last_iterations before any solve" % name)
		for constant in ["UPDATE_PROCESS", "UPDATE_PHYSICS", "UPDATE_MANUAL"]:
			expect(ClassDB.class_get_integer_constant(name, constant) == ["UPDATE_PROCESS", "UPDATE_PHYSICS", "UPDATE_MANUAL"].find(constant), "%s.%s" % [name, constant])
		expect(node.editor_preview == true, "%s.editor_preview defaults to true" % name)
		node.free()


func test_chain_specific_properties() -> void:
	for name in Nodes.CHAINS:
		var node: Node2D = ClassDB.instantiate(name)
		for prop in ["root_bone", "tip_bone", "pole", "max_iterations", "tolerance"]:
			expect(prop in node, "%s has %s" % [name, prop])
		expect(node.pole == null, "%s.pole defaults to none" % name)
		expect(node.max_iterations >= 1 and node.tolerance > 0.0, "%s has sensible solver defaults" % name)
		node.free()
	var two := TwoBoneIk2D.new()
	expect("flip_bend" in two and two.flip_bend == false, "TwoBoneIk2D.flip_bend defaults to false")
	expect("pole" in two and two.pole == null, "TwoBoneIk2D.pole defaults to none")
	# The pole sits right after the bones in the inspector.
	var names := two.get_property_list().map(func(p): return p["name"])
	expect(names.find("pole") == names.find("tip_bone") + 1, "TwoBoneIk2D lists pole right after tip_bone")
	two.free()
	var look := LookAt2D.new()
	expect("bone" in look, "LookAt2D has bone")
	expect("angle_offset" in look and look.angle_offset == 0.0, "LookAt2D.angle_offset defaults to 0")
	look.free()
