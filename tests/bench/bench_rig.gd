extends SceneTree
## FabrikRig2D against two stacked FabrikChain2D on the same two-armed creature (a three-bone spine whose chest
## carries both shoulders, two two-bone arms, bone angles != 0), in one process. Run with `cargo xtask bench`
## (release build of the extension). Prints microseconds per creature per frame (median [p10, p90] over repeats)
## and the mean error of the worse hand after the frame, for targets reachable together and out of reach.

const Rig := preload("res://lib/rig.gd")
const CREATURES := 64
const REPEATS := 41
const FRAMES := 4


func _initialize() -> void:
	create_timer(600.0).timeout.connect(func(): printerr("bench: watchdog"); quit(3))
	_run.call_deferred()


## A creature at `at`, mirrored when `mirrored`; with its two targets. Bones: spine_0, spine_1, chest, left_0,
## left_1, right_0, right_1.
func make_creature(at: Vector2, mirrored: bool) -> Dictionary:
	var skeleton := Skeleton2D.new()
	skeleton.position = at
	skeleton.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
	root.add_child(skeleton)
	var bones := Rig.two_armed_creature(skeleton)
	var targets := [Node2D.new(), Node2D.new()]
	for t in targets:
		root.add_child(t)
	var rest := []
	for b in bones:
		rest.append(b.rotation)
	return {"skeleton": skeleton, "bones": bones, "targets": targets, "rest": rest, "at": at, "sign": -1.0 if mirrored else 1.0}


func add_rig(c: Dictionary, iterations: int, tolerance: float) -> Array:
	var rig: Node2D = ClassDB.instantiate("FabrikRig2D")
	rig.update_mode = 2
	rig.max_iterations = iterations
	rig.tolerance = tolerance
	root.add_child(rig)
	rig.root_bone = c["bones"][0]
	rig.tip_bones = [rig.get_path_to(c["bones"][4]), rig.get_path_to(c["bones"][6])] as Array[NodePath]
	rig.targets = [rig.get_path_to(c["targets"][0]), rig.get_path_to(c["targets"][1])] as Array[NodePath]
	return [rig]


func add_stacked(c: Dictionary, iterations: int, tolerance: float) -> Array:
	var out := []
	for k in 2:
		var chain: Node2D = ClassDB.instantiate("FabrikChain2D")
		chain.update_mode = 2
		chain.max_iterations = iterations
		chain.tolerance = tolerance
		chain.root_bone = c["bones"][0]
		chain.tip_bone = c["bones"][4 + 2 * k]
		chain.target = c["targets"][k]
		root.add_child(chain)
		out.append(chain)
	return out


func end_of(b: Bone2D) -> Vector2:
	return b.global_transform * (Vector2.from_angle(b.get_bone_angle()) * b.get_length())


## Targets for repeat `r` of creature `k`: around the chest, within the arms' reach together (`far` false) or
## pulled far apart (true); mirrored for a mirrored creature.
func place(c: Dictionary, k: int, r: int, far: bool) -> void:
	var phase := 0.37 * (k + r)
	var a := Vector2(-55 + 20 * cos(phase), -120 + 25 * sin(phase))
	var b := Vector2(50 + 20 * sin(phase), -110 + 25 * cos(phase))
	if far:
		a = Vector2(-220, -120 + 30 * sin(phase))
		b = Vector2(230, -60 + 30 * cos(phase))
	var s: float = c["sign"]
	c["targets"][0].global_position = c["at"] + Vector2(s * a.x, a.y)
	c["targets"][1].global_position = c["at"] + Vector2(s * b.x, b.y)


func stats(samples: Array) -> Dictionary:
	samples.sort()
	var n := samples.size()
	return {"median": samples[n / 2], "p10": samples[n / 10], "p90": samples[(n * 9) / 10]}


## Per creature per frame: every solver node of the creature solved once (the rig once, the stacked pair each once).
func measure(stacked: bool, far: bool, iterations: int, tolerance: float) -> Dictionary:
	var creatures := []
	var nodes := []
	for k in CREATURES:
		var c := make_creature(Vector2(200 + (k % 8) * 260, 300 + (k / 8) * 260), k % 2 == 1)
		creatures.append(c)
		nodes.append_array(add_stacked(c, iterations, tolerance) if stacked else add_rig(c, iterations, tolerance))
	var samples := []
	var error_sum := 0.0
	for r in REPEATS:
		for k in creatures.size():
			var c: Dictionary = creatures[k]
			for i in c["bones"].size():
				c["bones"][i].rotation = c["rest"][i]
			place(c, k, r, far)
		for f in FRAMES:
			var start := Time.get_ticks_usec()
			for node in nodes:
				node.solve()
			samples.append(float(Time.get_ticks_usec() - start) / creatures.size())
		if r == REPEATS - 1:
			for c in creatures:
				var left: float = end_of(c["bones"][4]).distance_to(c["targets"][0].global_position)
				var right: float = end_of(c["bones"][6]).distance_to(c["targets"][1].global_position)
				error_sum += maxf(left, right)
	for node in nodes:
		node.free()
	for c in creatures:
		c["skeleton"].free()
		for t in c["targets"]:
			t.free()
	var s := stats(samples)
	s["error"] = error_sum / creatures.size()
	return s


func _run() -> void:
	print("")
	print("# FabrikRig2D vs two stacked FabrikChain2D on one two-armed creature (7 bones, 2 hands; half mirrored), %s" % Engine.get_version_info()["string"])
	print("# %d creatures, %d repeats of %d frames from the rest pose; microseconds per creature per frame (median [p10, p90]); error: the worse hand after %d frames, mean" % [CREATURES, REPEATS, FRAMES, FRAMES])
	print("| targets | iterations, tolerance | FabrikRig2D us | 2 x FabrikChain2D us | rig / stacked | rig error px | stacked error px |")
	print("|---|---|---|---|---|---|---|")
	for far in [false, true]:
		for setting in [[16, 0.5], [10, 0.0]]:
			var rig := measure(false, far, setting[0], setting[1])
			var stacked := measure(true, far, setting[0], setting[1])
			print("| %s | %d, %.1f | %.2f [%.2f, %.2f] | %.2f [%.2f, %.2f] | %.2fx | %.3f | %.3f |" % [
				"out of reach" if far else "reachable together", setting[0], setting[1],
				rig["median"], rig["p10"], rig["p90"], stacked["median"], stacked["p10"], stacked["p90"],
				rig["median"] / stacked["median"], rig["error"], stacked["error"]])
	print("REACH2D_DONE")
	quit(0)
