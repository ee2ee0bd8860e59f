extends SceneTree
const Ragdolls := preload("res://lib/ragdolls.gd")
const Rig := preload("res://lib/rig.gd")
const FLOOR := Rect2(-2000, 600, 4000, 400)
const STEP := Rect2(400, 560, 1600, 40)
func _initialize():
	_run.call_deferred()
func box(rect: Rect2):
	var body := StaticBody2D.new()
	body.position = rect.get_center()
	var shape := CollisionShape2D.new()
	var r := RectangleShape2D.new()
	r.size = rect.size
	shape.shape = r
	body.add_child(shape)
	root.add_child(body)
func _run():
	box(FLOOR)
	box(STEP)
	var holder := Node2D.new()
	root.add_child(holder)
	var figs := []
	var rags := []
	for k in 10:
		var figure := Ragdolls.figure(holder, Vector2(200 + 6 * k, 440 - 70 * k))
		figure["skeleton"].rotation = PI / 2 if k % 2 == 0 else -PI / 2
		var ragdoll: Node2D
		if OS.get_environment("NOLIM") != "":
			ragdoll = ClassDB.instantiate("Ragdoll2D"); holder.add_child(ragdoll); ragdoll.root_bone = figure["bones"][0]
		else:
			ragdoll = Ragdolls.ragdoll(holder, figure)
		figs.append(figure)
		rags.append(ragdoll)
	for i in 3:
		await physics_frame
	for r in rags:
		r.start()
	var before := []
	for f in figs:
		before.append(Ragdolls.points_of(f["bones"]))
	for t in 300:
		await physics_frame
		var fastest := 0.0
		var who := ""
		for k in figs.size():
			var now := Ragdolls.points_of(figs[k]["bones"])
			for i in now.size():
				var v := now[i].distance_to(before[k][i]) * 60
				if v > fastest:
					fastest = v
					who = "%d/%d" % [k, i]
			before[k] = now
		if t % 30 == 0:
			print("t %d fastest %.0f %s" % [t, fastest, who])
	var closest := INF
	for a in figs.size():
		for b in range(a + 1, figs.size()):
			for p in figs[a]["bones"]:
				for q in figs[b]["bones"]:
					closest = minf(closest, Ragdolls.segment_distance(p.global_position, Rig.bone_end(p), q.global_position, Rig.bone_end(q)))
	print("t closest %.2f" % closest)
	quit()
