// SPDX-License-Identifier: MIT
// The C# binding (include/rpgnav/Rpgnav.cs) under Mono: the sample dungeon, the hero's route with
// a door policy written in C#, the door stops heard through the C# listener and opened, the
// scheduler with 100 characters, a crowd field and bad input. Its answers are printed as
// tests/csharp/reference.cpp prints the C++ API's for the same inputs, and must equal them line
// for line.
//
// usage: mono BindingTest.exe PATH/TO/dungeon.rpgmap REFERENCE
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Rpgnav;

static class BindingTest
{
    static string Bits(float value) { return BitConverter.ToUInt32(BitConverter.GetBytes(value), 0).ToString("x8"); }

    static string Name(Status status)
    {
        return Marshal(Native.rpgnav_status_name(status));
    }
    static string Marshal(IntPtr text) { return Native.Text(text); }

    static string Points(Vec2[] points)
    {
        StringBuilder text = new StringBuilder(points.Length.ToString());
        foreach (Vec2 p in points) text.Append(' ').Append(Bits(p.X)).Append(',').Append(Bits(p.Y));
        return text.ToString();
    }

    static int failures = 0;
    static void Check(bool condition, string what)
    {
        if (condition) return;
        Console.Error.WriteLine("failed: " + what);
        ++failures;
    }

    static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: mono BindingTest.exe PATH/TO/dungeon.rpgmap REFERENCE");
            return 2;
        }
        List<string> lines = new List<string>();
        bool tooWide = false;
        try { World.Create(Layout.Square, Limits.MaxMapSide + 1, 1).Dispose(); } catch (RpgnavException e) { tooWide = e.Status != Status.Ok; }
        Check(tooWide, "a map wider than Limits.MaxMapSide is refused");
        using (World widest = World.Create(Layout.Square, Limits.MaxMapSide, 1)) Check(widest.Width == Limits.MaxMapSide, "a map of Limits.MaxMapSide is made");
        using (World world = World.Load(args[0]))
        {
            Check(world.Width == 56 && world.Height == 42, "the dungeon is 56 x 42");
            // The hero's door rule, in C#: the library key opens the locked library.
            DoorPolicy heroDoors = (DoorInfo door, Traveller who, out float cost) =>
            {
                cost = 0.0f;
                if (door.State == DoorState.Open) return DoorAction.Pass;
                if (door.State == DoorState.Locked && door.Key == "library_key") { cost = 3.0f; return DoorAction.Pass; }
                cost = 2.0f;
                return DoorAction.Stop;
            };
            world.SetDoorPolicy(heroDoors);
            int heard = 0;
            uint lastDoor = 0, lastCharacter = 0;
            Vec2 lastPoint = new Vec2();
            world.SetDoorListener((character, door, point) => { ++heard; lastCharacter = character; lastDoor = door; lastPoint = point; });

            using (Planner planner = new Planner(world))
            using (PathResult path = new PathResult())
            {
                PathRequest request = PathRequest.Default();
                request.Start = new Vec2(4.5f, 9.5f);
                request.Goal = new Vec2(51.5f, 4.5f);
                request.Radius = 0.3f;
                request.Character = 1000;
                Status status = planner.Plan(request, path);
                lines.Add("hero " + Name(status) + " " + Points(path.ControlPoints()));
                Check(status == Status.Ok, "the hero reaches the library with the key");
                Check(path.SmoothedPoints(0.25f).Length >= 2, "a smoothed curve");

                request.Goal = new Vec2(23.5f, 20.5f);
                for (int leg = 0; leg < 10; ++leg)
                {
                    status = planner.Plan(request, path);
                    lines.Add("crypt " + leg + " " + Name(status) + " " + Points(path.ControlPoints()));
                    if (status != Status.StoppedAtDoor) break;
                    uint door;
                    Vec2 stop;
                    Check(path.DoorStop(out door, out stop), "the path says where it stops");
                    Check(door == lastDoor && stop.X == lastPoint.X && stop.Y == lastPoint.Y && lastCharacter == 1000,
                          "the listener heard the same stop");
                    lines.Add("stop " + leg + " door " + lastDoor + " at " + Bits(lastPoint.X) + "," + Bits(lastPoint.Y) + " heard " + heard);
                    Check(world.GetDoorState(lastDoor) != DoorState.Open, "the door that stopped the hero is shut");
                    world.SetDoorState(lastDoor, DoorState.Open);
                    request.Start = lastPoint;
                }
                Check(status == Status.Ok, "the hero gets into the crypt once the doors are open");

                // Bad input is a status for a plan, an exception for a call.
                request.Start = new Vec2(float.NaN, 1.0f);
                Check(planner.Plan(request, path) == Status.InvalidArgument && path.Reason.Length > 0, "NaN start");
                Check(planner.SearchMode == SearchMode.ExactAnyAngle, "the default search");
                planner.SearchMode = SearchMode.Tiles;
                Check(planner.SearchMode == SearchMode.Tiles, "the tile search set");
                bool refused = false;
                try { planner.SearchMode = (SearchMode)9; } catch (RpgnavException) { refused = true; }
                Check(refused && planner.SearchMode == SearchMode.Tiles, "an unknown search mode throws and changes nothing");
                planner.SearchMode = SearchMode.ExactAnyAngle;
                world.SetDoorPolicy((DoorInfo door, Traveller who, out float cost) => { throw new InvalidOperationException("game bug"); });
                request.Start = new Vec2(4.5f, 9.5f);
                request.Goal = new Vec2(4.5f, 20.5f);
                bool rethrown = false;
                try { planner.Plan(request, path); } catch (RpgnavException e) { rethrown = e.InnerException is InvalidOperationException; }
                Check(rethrown, "an exception in the door policy comes back from Plan");
                world.SetDoorPolicy(heroDoors);
                Status after = planner.Plan(request, path);
                Check(after == Status.Ok || after == Status.StoppedAtDoor, "and the planner plans on");
                bool threw = false;
                try { world.SetDoorState(99999, DoorState.Open); } catch (RpgnavException e) { threw = e.Status == Status.InvalidArgument; }
                Check(threw, "an unknown door throws");
            }

            using (Scheduler scheduler = new Scheduler(world))
            using (PathResult path = new PathResult())
            {
                byte floor = world.FindTerrain("floor");
                uint seed = 12345u, added = 0;
                while (added < 100)
                {
                    unchecked
                    {
                        seed = seed * 1103515245u + 12345u;
                        int x = (int)((seed >> 8) % 56u);
                        seed = seed * 1103515245u + 12345u;
                        int y = (int)((seed >> 8) % 42u);
                        if (world.TerrainAt(new Cell(x, y)) != floor) continue;
                        ++added;
                        Character c = new Character();
                        c.Id = 1000 + added;  // above the map's entities (1, 2, ...)
                        c.Mobility = Mobility.Walk;
                        c.Radius = 0.3f;
                        c.Speed = 3.0f;
                        c.Position = world.TileCentre(new Cell(x, y));
                        c.Goal = added % 3 == 0 ? new Vec2(33.5f, 9.5f) : added % 3 == 1 ? new Vec2(23.5f, 20.5f) : new Vec2(11.5f, 33.5f);
                        scheduler.Add(c);
                    }
                }
                Check(scheduler.Count == 100, "100 characters");
                scheduler.SearchMode = SearchMode.AnyAngle;
                Check(scheduler.SearchMode == SearchMode.AnyAngle, "the scheduler's search set");
                scheduler.SearchMode = SearchMode.ExactAnyAngle;
                for (int frame = 0; frame < 60; ++frame)
                {
                    scheduler.Update(frame / 30.0, 0.0, 20000);
                    foreach (ReplanEvent e in scheduler.Events())
                    {
                        lines.Add("event " + frame + " " + e.Character + " " + (int)e.Kind + " " + (int)e.Reason + " " + Name(e.Status) +
                                  " " + e.Door + " " + e.Blocker);
                    }
                }
                for (uint id = 1001; id <= 1100; ++id)
                {
                    if (scheduler.PathOf(id, path) != Status.Ok) { lines.Add("path " + id + " none"); continue; }
                    lines.Add("path " + id + " " + Name(path.Status) + " " + Points(path.ControlPoints()));
                }
                // The cadence: one piece of work per update falls behind.
                for (int frame = 0; frame < 150; ++frame) scheduler.Update(2.0 + frame / 30.0, 0.0, 1);
                Check(scheduler.LateTurns > 0, "one piece of work per update cannot keep the cadence");
                lines.Add("late " + scheduler.LateTurns);
            }

            // A crowd field toward the great hall: following it leads downhill.
            using (Field field = new Field(world, Mobility.Walk, new Cell[] { new Cell(33, 9) }))
            {
                Check(field.Distance(new Cell(33, 9)) == 0.0, "the goal is at distance 0");
                Vec2 at = new Vec2(4.5f, 9.5f);
                Vec2 flow = field.Flow(at);
                Cell here = world.TileAt(at);
                Cell next = world.TileAt(new Vec2(at.X + 0.9f * flow.X, at.Y + 0.9f * flow.Y));
                Check(field.Distance(next) < field.Distance(here), "the flow leads downhill");
                field.MoveGoal(new Cell(33, 9), new Cell(34, 9));
                Check(field.Distance(new Cell(34, 9)) == 0.0, "the goal moved");
                // A walking goal: tracked, then an exact refresh lands (no walk since: exact).
                field.TrackGoal(new Cell(35, 9));
                Check(field.Tracking && field.TrackedTravel > 0.0, "the field tracks the goal");
                Check(field.Distance(new Cell(35, 9)) == 0.0, "the goal walked");
                while (field.TrackedTravel > 0.0) field.RefreshTracking(1 << 30);
                using (Field fresh = new Field(world, Mobility.Walk, new Cell[] { new Cell(35, 9) }))
                    Check(field.Distance(new Cell(4, 9)) == fresh.Distance(new Cell(4, 9)), "the refresh landed the exact field");
            }

            // Danger, the goal fallback and the designer settings (reference.cpp does the same).
            for (int y = 3; y <= 10; ++y)
                for (int x = 30; x <= 36; ++x) world.SetDanger(0, new Cell(x, y), 120);
            DangerStamp stamp = new DangerStamp { Centre = new Vec2(6.5f, 9.5f), Radius = 2.5f, Peak = 200, Falloff = 0.5f };
            uint stampId = world.AddDangerStamp(stamp);
            world.DangerFactor = 150;
            Check(world.DangerFactor == 150, "the world's danger factor");
            lines.Add("danger " + world.DangerAt(new Cell(33, 9)) + " " + world.DangerAt(new Cell(6, 9)) + " " + stampId);
            world.SetDoorPolicy(null);
            using (Planner planner = new Planner(world))
            using (PathResult path = new PathResult())
            {
                PathRequest request = PathRequest.Default();
                request.Start = new Vec2(4.5f, 9.5f);
                request.Goal = new Vec2(44.5f, 9.5f);
                request.Radius = 0.3f;
                request.Character = 1000;
                Status status = planner.Plan(request, path);
                lines.Add("weighed " + Name(status) + " " + Points(path.ControlPoints()));
                request.SetDangerFactor(0);
                status = planner.Plan(request, path);
                lines.Add("brave " + Name(status) + " " + Points(path.ControlPoints()));
                request.HasDangerFactor = 0;
                world.RemoveDangerStamp(stampId);
                request.Goal = new Vec2(0.5f, 0.5f);  // a wall
                request.GoalFallback = 1;
                status = planner.Plan(request, path);
                Vec2 fallback;
                Check(path.FallbackGoal(out fallback), "the plan went to the nearest reachable tile");
                lines.Add("fallback " + Name(status) + " " + Points(path.ControlPoints()) + " " + Bits(fallback.X) + "," + Bits(fallback.Y));
                request.GoalFallback = 0;
                DesignSettings settings = DesignSettings.Unset();
                settings.Comfort = 0.05f;
                settings.Smoothing = 0.2f;
                settings.DoorCostClosed = 9.0f;
                world.Settings = settings;
                Check(world.Settings.DoorCostClosed == 9.0f && world.Settings.Stickiness < 0.0f, "the designer settings");
                request.Goal = new Vec2(23.5f, 20.5f);
                status = planner.Plan(request, path);
                lines.Add("designed " + Name(status) + " " + Points(path.ControlPoints()));
            }
            using (Scheduler careful = new Scheduler(world))
            using (PathResult path = new PathResult())
            {
                Character c = new Character();
                c.Id = 2001;
                c.Mobility = Mobility.Walk;
                c.Radius = 0.3f;
                c.Speed = 3.0f;
                c.Position = new Vec2(4.5f, 9.5f);
                c.Goal = new Vec2(0.5f, 0.5f);
                c.GoalFallback = 1;
                c.HasDangerFactor = 1;
                c.DangerFactor = 200;
                careful.Add(c);
                careful.Update(0.0, 0.0, 0);
                foreach (ReplanEvent e in careful.Events()) lines.Add("careful " + e.Character + " " + (int)e.Kind + " " + Name(e.Status));
                lines.Add("careful path " + (careful.PathOf(2001, path) == Status.Ok ? Points(path.ControlPoints()) : "none"));
            }
            using (Field field = new Field(world, Mobility.Walk, new Cell[] { new Cell(33, 9) }))
            {
                field.SetDanger(1, new Cell(20, 10), 250);
                uint fieldStamp = field.AddDangerStamp(new DangerStamp { Centre = new Vec2(25.5f, 9.5f), Radius = 3.0f, Peak = 180, Falloff = 1.0f });
                field.SetDoorCosts(5.0f, -1.0f);
                StringBuilder line = new StringBuilder("field " + fieldStamp);
                foreach (Cell cell in new Cell[] { new Cell(4, 9), new Cell(20, 9), new Cell(23, 20), new Cell(51, 4) })
                    line.Append(' ').Append(BitConverter.DoubleToInt64Bits(field.Distance(cell)).ToString("x16"));
                lines.Add(line.ToString());
            }
        }
        lines.Add("end");

        string[] expected = File.ReadAllLines(args[1]);
        for (int i = 0; i < Math.Max(expected.Length, lines.Count); ++i)
        {
            string want = i < expected.Length ? expected[i] : "<nothing>";
            string got = i < lines.Count ? lines[i] : "<nothing>";
            if (want == got) continue;
            Console.Error.WriteLine("line " + (i + 1) + " differs from the C++ API's:\n  C++: " + want + "\n  C#:  " + got);
            ++failures;
            break;
        }
        if (failures != 0) return 1;
        Console.WriteLine("csharp: " + lines.Count + " lines equal the C++ API's");
        return 0;
    }
}
