extends "res://lib/test_case.gd"
## Issue 19: one validation for every route. For every numeric property each class declares itself (read from
## ClassDB, so a new property cannot be missed), a bad value is assigned by every route a script has: `node.x = v`,
## `set("x", v)`, the setter `set_x(v)` and `call("set_x", v)`; each must print one error and keep the last good value.
## Also: the documented maxima are accepted, a flipping setup is reported once, a repeated bad advance() once.

const BAD_FLOATS := [NAN, INF, -INF]
const BAD_VECTORS := [Vector2(NAN, 0), Vector2(0, INF)]
const ROUTES := ["assign", "set", "setter", "call"]



## The float, int and Vector2 properties `klass` declares itself (not Node2D's), stored in scenes.
func own_properties(klass: String) -> Array:
	var out := []
	for property in ClassDB.class_get_property_list(klass, true):
		if property["usage"] & PROPERTY_USAGE_STORAGE and property["type"] in [TYPE_FLOAT, TYPE_INT, TYPE_VECTOR2]:
			out.append(property)
	return out


func assign(node: Object, property: String, value: Variant, route: String) -> void:
	match route:
		"assign":
			node.set(property, value)  # `node.x = v` on an untyped Object is this same property set.
		"set":
			node.set(property, value)
		"setter":
			node.call("set_" + property, value)
		"call":
			node.callv("set_" + property, [value])


func test_every_property_by_every_route() -> void:
	var checked := 0
	for klass in Nodes.ALL + Nodes.RIGS + Nodes.HELPERS:
		var properties := own_properties(klass)
		expect(properties.size() >= 3, "%s: properties found" % klass)
		for property in properties:
			var name: String = property["name"]
			var bad: Array = BAD_VECTORS if property["type"] == TYPE_VECTOR2 else BAD_FLOATS
			if property["type"] == TYPE_INT:
				# A layer mask takes any 32-bit pattern; other ints are counts.
				bad = [-1, 1 << 32, -2147483648] if property["hint"] == PROPERTY_HINT_LAYERS_2D_PHYSICS else [-1, 1000000, -2147483648]
			for route in ROUTES:
				for value in bad:
					var node: Node2D = ClassDB.instantiate(klass)
					var before: Variant = node.get(name)
					expect(node.has_method("set_" + name), "%s.%s has a setter" % [klass, name])
					var errors := error_log.messages.size()
					assign(node, name, value, route)
					var after: Variant = node.get(name)
					var kept: bool = after == before or (typeof(after) == TYPE_FLOAT and is_nan(after) and is_nan(before))
					expect(kept, "%s.%s by %s = %s: kept %s, got %s" % [klass, name, route, value, before, after])
					expect(error_log.messages.size() - errors == 1, "%s.%s by %s = %s: one error, got %d" % [klass, name, route, value, error_log.messages.size() - errors])
					node.free()
					checked += 1
	print("every route: %d cases" % checked)


func test_documented_maxima_are_accepted() -> void:
	var two: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	var errors := error_log.messages.size()
	two.compress = 0.99
	expect(is_equal_approx(two.compress, 0.99) and error_log.messages.size() == errors, "compress = 0.99 accepted")
	two.free()
	var fabrik: Node2D = ClassDB.instantiate("FabrikChain2D")
	fabrik.set_max_iterations(1000000)
	expect(fabrik.max_iterations <= 1024, "set_max_iterations(1000000) refused")
	fabrik.free()


func test_bad_advance_is_reported_once_until_a_good_one() -> void:
	var skeleton := make_chain([30.0, 20.0])
	var spring: Node2D = make_ik("SpringChain2D", skeleton, null)
	var errors := error_log.messages.size()
	for i in 5:
		expect(not spring.advance(1e300), "advance(1e300) refused")
		expect(not spring.advance(NAN), "advance(NAN) refused")
	expect(error_log.messages.size() - errors == 1, "one message for repeated bad advance(), got %d" % (error_log.messages.size() - errors))
	expect(error_log.count("advance(delta)") >= 1, "the message names advance(delta)")
	expect(spring.advance(1.0 / 60.0), "a good advance solves")
	spring.free()
	skeleton.free()


func test_flipping_setup_is_reported_once() -> void:
	for klass in Nodes.ALL:
		var skeleton := make_chain([30.0, 20.0, 10.0])
		var target := make_target(skeleton.global_position + Vector2(30, 20))
		var ik: Node2D = make_ik(klass, skeleton, target, 0, Nodes.tip_index(klass, 3))
		var errors := error_log.messages.size()
		for i in 60:
			if i % 2 == 0:
				remove_child(skeleton)
			else:
				add_child(skeleton)
			ik.solve()
		expect(error_log.messages.size() - errors == 1, "%s: skeleton in and out of the tree every frame: one message, got %d" % [klass, error_log.messages.size() - errors])
		if skeleton.get_parent() == null:
			add_child(skeleton)
		for node in [ik, target, skeleton]:
			node.free()


## A scene file written with a bad value in every numeric property of every class: loading it must print one error
## per bad value and leave each property at its default.
func test_scene_from_disk_with_bad_values() -> void:
	var text := "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n"
	var expected := 0
	for klass in Nodes.ALL:
		text += "\n[node name=\"%s\" type=\"%s\" parent=\".\"]\n" % [klass, klass]
		for property in own_properties(klass):
			var name: String = property["name"]
			match property["type"]:
				TYPE_FLOAT:
					text += "%s = nan\n" % name
				TYPE_INT:
					text += "%s = -1\n" % name
				TYPE_VECTOR2:
					text += "%s = Vector2(inf, 0)\n" % name
			expected += 1
	var path := "user://bad_values.tscn"
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
	var errors := error_log.messages.size()
	var scene: PackedScene = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var root := scene.instantiate()
	expect(error_log.messages.size() - errors == expected, "one error per bad value: %d expected, got %d" % [expected, error_log.messages.size() - errors])
	for klass in Nodes.ALL:
		var node: Node = root.get_node(klass)
		var fresh: Node = ClassDB.instantiate(klass)
		for property in own_properties(klass):
			var name: String = property["name"]
			expect(node.get(name) == fresh.get(name), "%s.%s from disk keeps its default %s, got %s" % [klass, name, fresh.get(name), node.get(name)])
		fresh.free()
	root.free()
	print("scene from disk: %d bad values" % expected)
