extends "res://lib/test_case.gd"
## Reloads with IK nodes alive: scene changes and reloads (`change_scene_to_file`, `reload_current_scene`), and
## `queue_free` of a skeleton while its node lives on, and of the nodes while the skeleton lives on. No panic, no NaN,
## at most one message per problem, and the nodes of a reloaded scene solve as the first ones did.

const SCENE := "res://reload/rig.tscn"
## The rig has one node per class, each on a skeleton of its own.
var SKELETONS := Nodes.ALL.size()


## Changes to the rig scene and lets it run 5 frames; returns it (the current scene).
func open_rig_scene(label: String) -> Node:
	expect(get_tree().change_scene_to_file(SCENE) == OK, label)
	await wait_frames(5)
	return get_tree().current_scene


## Unloads the current scene and lets 2 frames free it.
func close_scene() -> void:
	get_tree().unload_current_scene()
	await wait_frames(2)


## Every node of the current scene solved toward its target (the spring: followed its pose), with finite bones.
func expect_rig_solving(label: String) -> void:
	var scene := get_tree().current_scene
	if not expect(scene != null and scene.scene_file_path == SCENE, "%s: the rig scene is current" % label):
		return
	for klass in Nodes.ALL:
		var ik: Node2D = scene.get_node(klass)
		var limit := 0.05 if klass == "LookAt2D" else 1.0
		expect(ik.last_error >= 0.0 and ik.last_error <= limit, "%s: %s solves (last_error %s)" % [label, klass, ik.last_error])
		expect(ik.get_setup_warning() == "", "%s: %s has no warning" % [label, klass])
	for i in SKELETONS:
		expect(all_finite(bones_of(scene.get_node("Skeleton%d" % i))), "%s: skeleton %d finite" % [label, i])


func test_scene_change_and_reload_with_nodes_alive() -> void:
	error_log.take()
	var first: Node = await open_rig_scene("change_scene_to_file")
	await expect_rig_solving("first load")
	for round in 3:
		# Move the targets so that each reload starts from a pose the new nodes must solve again.
		for i in Nodes.ALL.filter(func(k): return Nodes.has_target(k)).size():
			get_tree().current_scene.get_node("Target%d" % i).position += Vector2(5, -5)
		await wait_frames(2)
		expect(get_tree().reload_current_scene() == OK, "reload_current_scene")
		await wait_frames(5)
		await expect_rig_solving("reload %d" % round)
	expect(not is_instance_valid(first), "the first scene was freed")
	# Back to the same file through change_scene_to_file while the old nodes are alive.
	await open_rig_scene("change_scene_to_file again")
	await expect_rig_solving("second change")
	var messages := error_log.take()
	expect(messages.is_empty(), "scene changes and reloads printed nothing (got %d: %s)" % [messages.size(), messages])
	await close_scene()


func test_queue_free_skeleton_while_nodes_live() -> void:
	var scene: Node = await open_rig_scene("change_scene_to_file")
	error_log.take()
	for i in SKELETONS:
		scene.get_node("Skeleton%d" % i).queue_free()
	await wait_frames(20)
	var messages := error_log.take()
	var counts := {}
	for m in messages:
		counts[m] = counts.get(m, 0) + 1
		expect(not "panic" in m.to_lower(), "no panic: %s" % m)
	for m in counts:
		expect(counts[m] <= SKELETONS, "at most one message per node and problem over 20 frames: %s x%d" % [m, counts[m]])
	expect(messages.size() == SKELETONS, "one message per node whose skeleton went (got %d)" % messages.size())
	for klass in Nodes.ALL:
		var ik: Node2D = scene.get_node(klass)
		expect(ik.get_setup_warning() != "", "%s: the warning says the bones are gone" % klass)
		expect(ik.solve() == false, "%s: solve() refuses" % klass)
	await close_scene()


func test_queue_free_nodes_while_skeleton_lives() -> void:
	var scene: Node = await open_rig_scene("change_scene_to_file")
	error_log.take()
	var poses := []
	for i in SKELETONS:
		poses.append(rotations_of(bones_of(scene.get_node("Skeleton%d" % i))))
	for klass in Nodes.ALL:
		scene.get_node(klass).queue_free()
	await wait_frames(10)
	for i in SKELETONS:
		var bones := bones_of(scene.get_node("Skeleton%d" % i))
		expect(all_finite(bones), "skeleton %d finite" % i)
		expect(rotations_of(bones) == poses[i], "skeleton %d keeps the last solved pose" % i)
	# The same frame: nodes and skeletons together.
	expect(get_tree().reload_current_scene() == OK, "reload_current_scene")
	await wait_frames(5)
	scene = get_tree().current_scene
	for child in scene.get_children():
		child.queue_free()
	await wait_frames(5)
	var messages := error_log.take()
	expect(messages.is_empty(), "freeing nodes and skeletons printed nothing (got %s)" % [messages])
	await close_scene()
