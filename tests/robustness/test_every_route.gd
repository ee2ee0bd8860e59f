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
	for klass in Nodes.ALL + Nodes.RIGS + Nodes.PATHS + Nodes.CONSTRAINTS + Nodes.HELPERS:
		var properties := own_properties(klass)
		expect(properties.size() >= (1 if klass in Nodes.HELPERS else 3), "%s: properties found" % klass)
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
	expect(checked >= 100, "every numeric property of every class checked by every route (%d cases)" % checked)
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
	for klass in Nodes.ALL + Nodes.PATHS + Nodes.CONSTRAINTS:
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
	expect(expected >= 20, "a bad value for every numeric property (%d)" % expected)
	var path := "user://bad_values.tscn"
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
	var errors := error_log.messages.size()
	var scene: PackedScene = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var root := scene.instantiate()
	expect(error_log.messages.size() - errors == expected, "one error per bad value: %d expected, got %d" % [expected, error_log.messages.size() - errors])
	for klass in Nodes.ALL + Nodes.PATHS + Nodes.CONSTRAINTS:
		var node: Node = root.get_node(klass)
		var fresh: Node = ClassDB.instantiate(klass)
		for property in own_properties(klass):
			var name: String = property["name"]
			expect(node.get(name) == fresh.get(name), "%s.%s from disk keeps its default %s, got %s" % [klass, name, fresh.get(name), node.get(name)])
		fresh.free()
	root.free()
	print("scene from disk: %d bad values" % expected)


## The object properties `klass` declares itself (nodes, resources, arrays of nodes), stored in scenes, each with the
## class it takes (read from its hint) and whether it is an array.
func object_properties(klass: String) -> Array:
	var out := []
	for property in ClassDB.class_get_property_list(klass, true):
		if not property["usage"] & PROPERTY_USAGE_STORAGE:
			continue
		if property["type"] == TYPE_OBJECT:
			out.append({"name": property["name"], "takes": property["hint_string"], "array": false})
		elif property["type"] == TYPE_ARRAY and ":" in property["hint_string"]:
			out.append({"name": property["name"], "takes": property["hint_string"].get_slice(":", 1), "array": true})
	return out


## An object that is not a `takes`: a Sprite2D (a Node2D) for a Bone2D, a leg or a path, a Node3D for a Node2D, a
## Gradient for a resource.
func wrong_for(takes: String) -> Object:
	if ClassDB.is_parent_class(takes, "Resource"):
		return Gradient.new()
	return Node3D.new() if ClassDB.is_parent_class("Sprite2D", takes) else Sprite2D.new()


## No godot-rust conversion text in `messages` (issue 36: `parameter #0 (Option<Gd<Bone2D>>) conversion`,
## `VariantGd`, Godot's `Invalid call error code 1337`).
func no_conversion_text(messages: PackedStringArray) -> bool:
	for m in messages:
		for raw in ["conversion", "VariantGd", "Gd<", "1337", "godot-rust"]:
			if raw in m:
				return false
	return true


## Issue 36: a value of the wrong class in any object property of any class, by every route a script has, gives one
## sentence naming the property, the class it takes and the class it got, and the last good value is kept. Before
## the fix: godot-rust's conversion text, and Godot's `Bug: Invalid call error code 1337` for the setter routes.
func test_wrong_class_in_an_object_property_by_every_route() -> void:
	var checked := 0
	for klass in Nodes.ALL + Nodes.RIGS + Nodes.PATHS + Nodes.CONSTRAINTS + Nodes.HELPERS:
		for property in object_properties(klass):
			var name: String = property["name"]
			var takes: String = property["takes"]
			for route in ROUTES:
				var node: Node2D = ClassDB.instantiate(klass)
				var good: Object = ClassDB.instantiate(takes)
				var wrong := wrong_for(takes)
				var good_value: Variant = [good] if property["array"] else good
				var wrong_value: Variant = [good, wrong] if property["array"] else wrong
				node.set(name, good_value)
				var errors := error_log.messages.size()
				assign(node, name, wrong_value, route)
				var printed := error_log.messages.slice(errors)
				var slot := "%s.%s%s" % [klass, name, "[1]" if property["array"] else ""]
				var sentence := "%s takes a %s, got a %s" % [slot, takes, wrong.get_class()]
				expect(printed.size() == 1, "%s by %s: one error, got %s" % [slot, route, printed])
				expect(printed.size() == 1 and sentence in printed[0] and "keeping the current %s" % name in printed[0], "%s by %s: the sentence says `%s`, got %s" % [slot, route, sentence, printed])
				expect(no_conversion_text(printed), "%s by %s: no conversion text (%s)" % [slot, route, printed])
				expect(node.get(name) == good_value, "%s by %s: the good value is kept, got %s" % [slot, route, node.get(name)])
				# Not an object at all: the same sentence with the type it got.
				errors = error_log.messages.size()
				assign(node, name, 5, route)
				printed = error_log.messages.slice(errors)
				expect(printed.size() == 1 and "%s.%s takes" % [klass, name] in printed[0] and "int (5)" in printed[0], "%s = 5 by %s: one sentence naming the int, got %s" % [slot, route, printed])
				expect(node.get(name) == good_value, "%s = 5 by %s: the good value is kept" % [slot, route])
				# Clearing is no error.
				if not property["array"]:
					errors = error_log.messages.size()
					assign(node, name, null, route)
					expect(error_log.messages.size() == errors and node.get(name) == null, "%s = null by %s: cleared, no error" % [slot, route])
				for o in [node, good, wrong]:
					if o is Node:
						o.free()
				checked += 1
	expect(checked >= 4 * 30, "every object property of every class checked (%d cases)" % checked)
	print("wrong class by every route: %d cases" % checked)


## Issue 36's cases as a user writes them: typed calls and assignments (not through set()).
func test_the_issue_s_wrong_classes_as_written() -> void:
	var copy: CopyTransform2D = CopyTransform2D.new()
	var chain: FabrikChain2D = FabrikChain2D.new()
	var grounder: FootGrounder2D = FootGrounder2D.new()
	var stepper: LegStepper2D = LegStepper2D.new()
	var sprite: Variant = Sprite2D.new()
	var plain: Variant = Node2D.new()
	var leg: Variant = FabrikChain2D.new()
	var node: Variant = Node.new()
	sprite.name = "Sprite"
	var cases := [
		[func() -> void: copy.bone = sprite, "CopyTransform2D.bone takes a Bone2D, got a Sprite2D \"Sprite\""],
		[func() -> void: copy.set_bone(sprite), "CopyTransform2D.bone takes a Bone2D, got a Sprite2D \"Sprite\""],
		[func() -> void: chain.root_bone = plain, "FabrikChain2D.root_bone takes a Bone2D, got a Node2D"],
		[func() -> void: chain.set_tip_bone(plain), "FabrikChain2D.tip_bone takes a Bone2D, got a Node2D"],
		[func() -> void: grounder.first_leg = leg, "FootGrounder2D.first_leg takes a TwoBoneIk2D, got a FabrikChain2D"],
		[func() -> void: grounder.set_second_leg(leg), "FootGrounder2D.second_leg takes a TwoBoneIk2D, got a FabrikChain2D"],
		[func() -> void: stepper.legs = [leg, node], "LegStepper2D.legs[1] takes a Node2D, got a Node"],
		[func() -> void: stepper.set_legs([node]), "LegStepper2D.legs[0] takes a Node2D, got a Node"],
	]
	for c in cases:
		var errors := error_log.messages.size()
		c[0].call()
		var printed := error_log.messages.slice(errors)
		expect(printed.size() == 1 and c[1] in printed[0], "one sentence `%s`, got %s" % [c[1], printed])
		expect(no_conversion_text(printed), "no conversion text (%s)" % [printed])
	expect(copy.bone == null and chain.root_bone == null and grounder.first_leg == null and stepper.legs.is_empty(), "nothing stored")
	for o in [copy, chain, grounder, stepper, sprite, plain, leg, node]:
		o.free()


## A scene file whose node paths lead to nodes of the wrong class: one sentence for a node property when it is
## instantiated, nothing stored. A typed array (`legs`) is the engine's own: it builds the array with the
## property's type from the node paths and refuses the wrong entry itself (its two lines name both classes) before
## the setter sees the array, which then holds an empty entry (reported by the stepper's setup check, in the tree).
func test_scene_file_with_wrong_classes() -> void:
	var text := "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n\n[node name=\"Sprite\" type=\"Sprite2D\" parent=\".\"]\n\n[node name=\"Plain\" type=\"Node\" parent=\".\"]\n"
	text += "\n[node name=\"Copy\" type=\"CopyTransform2D\" parent=\".\" node_paths=PackedStringArray(\"bone\")]\nbone = NodePath(\"../Sprite\")\n"
	text += "\n[node name=\"Stepper\" type=\"LegStepper2D\" parent=\".\" node_paths=PackedStringArray(\"legs\")]\nlegs = [NodePath(\"../Plain\")]\n"
	var path := "user://wrong_classes.tscn"
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
	var errors := error_log.messages.size()
	var scene: PackedScene = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var root := scene.instantiate()
	var printed := error_log.messages.slice(errors)
	print("scene file with wrong classes printed: %s" % [printed])
	expect(error_log.count("CopyTransform2D.bone takes a Bone2D, got a Sprite2D") == 1, "the bone's sentence once (%s)" % [printed])
	expect(error_log.count("object of type 'Node' into a TypedArray, which does not inherit from 'Node2D'") == 1, "the engine's own line for the typed array (%s)" % [printed])
	expect(printed.size() == 3, "the bone's sentence and the engine's two lines, nothing more (%s)" % [printed])
	expect(no_conversion_text(printed), "no conversion text (%s)" % [printed])
	var legs: Array = root.get_node("Stepper").legs
	expect(root.get_node("Copy").bone == null and not (legs.size() == 1 and legs[0] is Node), "no node of the wrong class stored")
	root.free()
