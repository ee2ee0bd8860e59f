extends SceneTree
## FabrikRig2D against two stacked FabrikChain2D on the same two-armed creature (a three-bone spine whose chest
## carries both shoulders, two two-bone arms, bone angles != 0), in one process. Run with `cargo xtask bench`
## (release build of the extension). Prints microseconds per creature per frame (median [p10, p90] over repeats)
## and the mean error of the worse hand after the frame, for targets reachable together and out of reach.

const Rig := preload("res://lib/rig.gd")
const Characters := preload("res://lib/characters.gd")
const Timing := preload("res://bench/timing.gd")
const CREATURES := 64
const REPEATS := 41
const FRAMES := 4


func _initialize() -> void:
	Timing.start_watchdog(self, 600.0)
	_run.call_deferred()


## The two-armed creature (Characters.two_armed) at `at`, mirrored when `mirrored`; with its two targets and its
## bones' rest rotations.
func make_creature(at: Vector2, mirrored: bool) -> Dictionary:
	var c := Characters.two_armed(root, at, Vector2(-1, 1) if mirrored else Vector2.ONE)
	var targets := [Node2D.new(), Node2D.new()]
	for t in targets:
		root.add_child(t)
	var rest := []
	for b in c["bones"]:
		rest.append(b.rotation)
	c.merge({"targets": targets, "rest": rest, "at": at, "sign": -1.0 if mirrored else 1.0})
	return c


## The solver nodes of one creature: a FabrikRig2D (`stacked` false) or two stacked FabrikChain2D, in manual mode.
func add_solvers(c: Dictionary, stacked: bool, iterations: int, tolerance: float) -> Array:
	var nodes := Characters.stacked_chains(root, c["bones"], c["targets"]) if stacked else [Characters.fabrik_rig(root, c["bones"], c["targets"])]
	for node in nodes:
		node.max_iterations = iterations
		node.tolerance = tolerance
	return nodes


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


## Per creature per frame: every solver node of the creature solved once (the rig once, the stacked pair each once).
func measure(stacked: bool, far: bool, iterations: int, tolerance: float) -> Dictionary:
	var creatures := []
	var nodes := []
	for k in CREATURES:
		var c := make_creature(Vector2(200 + (k % 8) * 260, 300 + (k / 8) * 260), k % 2 == 1)
		creatures.append(c)
		nodes.append_array(add_solvers(c, stacked, iterations, tolerance))
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
				var left: float = Rig.bone_end(c["bones"][4]).distance_to(c["targets"][0].global_position)
				var right: float = Rig.bone_end(c["bones"][6]).distance_to(c["targets"][1].global_position)
				error_sum += maxf(left, right)
	for node in nodes:
		node.free()
	for c in creatures:
		c["skeleton"].free()
		for t in c["targets"]:
			t.free()
	var s := Timing.stats(samples)
	s["error"] = error_sum / creatures.size()
	return s


func _run() -> void:
	print("")
	print("# FabrikRig2D vs two stacked FabrikChain2D on one two-armed creature (7 bones, 2 hands; half mirrored), %s" % Engine.get_version_info()["string"])
	print("# %d creatures, %d repeats of %d frames from the rest pose; microseconds per creature per frame (median [p10, p90]); error: the worse hand after %d frames, mean" % [CREATURES, REPEATS, FRAMES, FRAMES])
	Timing.print_table_head("| targets | iterations, tolerance | FabrikRig2D us | 2 x FabrikChain2D us | rig / stacked | rig error px | stacked error px |")
	for far in [false, true]:
		for setting in [[16, 0.5], [10, 0.0]]:
			var rig := measure(false, far, setting[0], setting[1])
			var stacked := measure(true, far, setting[0], setting[1])
			print("| %s | %d, %.1f | %s | %s | %.2fx | %.3f | %.3f |" % [
				"out of reach" if far else "reachable together", setting[0], setting[1], Timing.fmt_time(rig),
				Timing.fmt_time(stacked), rig["median"] / stacked["median"], rig["error"], stacked["error"]])
	print("REACH2D_DONE")
	quit(0)
