// SPDX-License-Identifier: MIT
// rpgnav for C#: P/Invoke declarations of the C API (rpgnav/rpgnav.h) and thin wrappers, the way
// a Unity native plugin is written. Copy this file and the shared library (librpgnav.so,
// rpgnav.dll or librpgnav.dylib) into the project; see the README, "C# and Unity".
//
// Rules, as in C: a World outlives the Planners, Schedulers and Fields made on it; each object is
// used by one thread at a time; Dispose() frees the native side (finalizers do it otherwise).
// Calls that get bad input throw RpgnavException with the library's message; a plan's outcome
// (NoPath, StoppedAtDoor...) is a Status, not an exception.
using System;
using System.Runtime.InteropServices;

namespace Rpgnav
{
    public enum Status
    {
        Ok = 0, PartialPath = 1, InProgress = 2, NoPath = 3, StartBlocked = 4, GoalBlocked = 5,
        OutOfBounds = 6, InvalidArgument = 7, ParseError = 8, IoError = 9, StoppedAtDoor = 10,
        BlockedByEntity = 11, LimitExceeded = 12, OutOfMemory = 13, InternalError = 14,
    }

    public enum Layout { Square = 0, HexPointy = 1, HexFlat = 2 }
    public enum DoorState { Open = 0, Closed = 1, Locked = 2 }
    public enum DoorAction { Pass = 0, Stop = 1, Avoid = 2 }
    public enum EventKind { NewPath = 0, StoppedAtDoor = 1, BlockedByEntity = 2, GoalUnreachable = 3 }
    public enum ReplanReason { First = 0, Periodic = 1, GoalChanged = 2, GoalMoved = 3, DoorChanged = 4, MapChanged = 5, EntityInCorridor = 6, Stuck = 7 }

    /// <summary>Which search a planner runs (rpgnav_search_mode).</summary>
    public enum SearchMode { Tiles = 0, AnyAngle = 1, ExactAnyAngle = 2 }
    public static class Mobility { public const byte Walk = 0, Swim = 1, Fly = 2; }
    /// <summary>The library's fixed limits (RPGNAV_MAX_* in rpgnav.h).</summary>
    public static class Limits
    {
        public const int MaxMapSide = 32768;
        public const long MaxMapTiles = 67108864;
        public const int MaxMobilities = 8, MaxTerrains = 255, MaxDangerLayers = 8;
        public const int MaxEntities = 1048576, MaxDoors = 1048576, MaxCharacters = 1048576;
        public const float MinSearchCost = 1.0f / 1024.0f, MaxSearchCost = 1000.0f, MaxDoorCost = 1000.0f;
        /// <summary>A character's radius, in tiles.</summary>
        public const float MaxRadiusTiles = 3.0f;
    }
    public static class EntityFlags { public const uint Flat = 1, Static = 2, Moving = 4; }

    [StructLayout(LayoutKind.Sequential)]
    public struct Vec2
    {
        public float X, Y;
        public Vec2(float x, float y) { X = x; Y = y; }
        public override string ToString() { return "(" + X + ", " + Y + ")"; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Cell
    {
        public int X, Y;
        public Cell(int x, int y) { X = x; Y = y; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Entity
    {
        public uint Id;
        public Vec2 Position;
        public float Radius;
        public uint Flags;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PathRequest
    {
        public Vec2 Start, Goal;
        public byte Mobility;
        public float Radius;
        public uint Character;
        public float Comfort;  // < 0: the planner's default
        public byte HasDangerFactor;  // 1: weigh danger with DangerFactor; 0: with the world's
        public byte DangerFactor;     // 0 ignores danger, 255 all but ignores distance
        public byte GoalFallback;     // 1: an unreachable goal leads to the nearest reachable tile (PartialPath)
        public static PathRequest Default() { return Native.rpgnav_path_request_default(); }
        /// <summary>Weigh danger with this factor instead of the world's.</summary>
        public void SetDangerFactor(byte factor) { HasDangerFactor = 1; DangerFactor = factor; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Character
    {
        public uint Id;
        public byte Mobility;
        public float Radius, Speed;
        public Vec2 Position, Goal;
        public uint Follow;  // non-zero: follow this entity instead of going to Goal
        public byte HasDangerFactor;  // 1: its plans weigh danger with DangerFactor; 0: the world's
        public byte DangerFactor;
        public byte GoalFallback;     // 1: an unreachable goal leads to the nearest reachable tile
    }

    /// <summary>A disc of danger round a point: Peak at the centre, falling off linearly to
    /// Peak × (1 - Falloff) at Radius.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DangerStamp
    {
        public Vec2 Centre;
        public float Radius;
        public byte Peak;
        public float Falloff;
    }

    /// <summary>What a designer tunes per map (a loaded map brings its own); each value below 0
    /// is unset (the library's default).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct DesignSettings
    {
        public float Comfort, Smoothing, DetourMargin, DoorCostOpen, DoorCostClosed, DoorCostLocked, ReplanInterval, Stickiness;
        public static DesignSettings Unset() { return Native.rpgnav_design_settings_unset(); }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct ReplanEvent
    {
        public uint Character;
        public EventKind Kind;
        public ReplanReason Reason;
        public Status Status;
        public uint Door, Blocker;
        public double Time;
    }

    /// <summary>A door as the door policy sees it.</summary>
    public struct DoorInfo
    {
        public uint Id;
        public string Name, Key;
        public Cell A, B;
        public DoorState State;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Traveller
    {
        public uint Character;
        public byte Mobility;
        public float Radius;
    }

    public delegate DoorAction DoorPolicy(DoorInfo door, Traveller traveller, out float cost);
    public delegate void DoorStopListener(uint character, uint door, Vec2 point);

    public sealed class RpgnavException : Exception
    {
        public readonly Status Status;
        public RpgnavException(Status status, string message) : base(status + ": " + message) { Status = status; }
        public RpgnavException(Status status, string message, Exception inner) : base(status + ": " + message, inner) { Status = status; }
    }

    /// <summary>Unity's IL2CPP needs callbacks from native code marked with an attribute of this name.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }

    /// <summary>The C API, one to one (see rpgnav/rpgnav.h for each function).</summary>
    public static class Native
    {
        const string Lib = "rpgnav";

        [StructLayout(LayoutKind.Sequential)]
        public struct DoorInfoNative
        {
            public uint Id;
            public IntPtr Name, Key;
            public Cell A, B;
            public DoorState State;
        }

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate DoorAction DoorPolicyFn(IntPtr user, ref DoorInfoNative door, ref Traveller traveller, ref float cost);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void DoorStopFn(IntPtr user, uint character, uint door, Vec2 point);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern IntPtr rpgnav_status_name(Status status);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern int rpgnav_succeeded(Status status);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern IntPtr rpgnav_last_error();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern uint rpgnav_version();

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_load(byte[] path, out IntPtr world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_parse(byte[] text, UIntPtr length, out IntPtr world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_create(Layout layout, int width, int height, float tileSize, out IntPtr world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern void rpgnav_world_destroy(IntPtr world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern int rpgnav_world_width(HandleRef world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern int rpgnav_world_height(HandleRef world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_find_terrain(HandleRef world, byte[] name, out byte terrain);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_find_mobility(HandleRef world, byte[] name, out byte mobility);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_terrain_at(HandleRef world, Cell cell, out byte terrain);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_tile_at(HandleRef world, Vec2 point, out Cell cell);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_tile_centre(HandleRef world, Cell cell, out Vec2 centre);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_terrain(HandleRef world, Cell cell, byte terrain);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_terrain_rect(HandleRef world, Cell low, Cell high, byte terrain);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_add_door(HandleRef world, Cell a, Cell b, DoorState state, byte[] name, out uint door);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_find_door(HandleRef world, byte[] name, out uint door);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_door_state(HandleRef world, uint door, DoorState state);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_door_state(HandleRef world, uint door, out DoorState state);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_remove_door(HandleRef world, uint door);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_add_entity(HandleRef world, ref Entity entity);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_move_entity(HandleRef world, uint id, Vec2 position);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_remove_entity(HandleRef world, uint id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_danger(HandleRef world, int layer, Cell cell, byte danger);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_danger(HandleRef world, Cell cell, out byte danger);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_add_danger_stamp(HandleRef world, ref DangerStamp stamp, out uint id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_remove_danger_stamp(HandleRef world, uint id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_danger_factor(HandleRef world, byte factor);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern byte rpgnav_world_danger_factor(HandleRef world);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern DesignSettings rpgnav_design_settings_unset();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_design_settings(HandleRef world, out DesignSettings settings);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_design_settings(HandleRef world, ref DesignSettings settings);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_door_policy(HandleRef world, DoorPolicyFn policy, IntPtr user);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_world_set_door_listener(HandleRef world, DoorStopFn listener, IntPtr user);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern PathRequest rpgnav_path_request_default();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_planner_create(HandleRef world, out IntPtr planner);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern void rpgnav_planner_destroy(IntPtr planner);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_planner_set_search_mode(HandleRef planner, SearchMode mode);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern SearchMode rpgnav_planner_search_mode(HandleRef planner);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_path_create(out IntPtr path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern void rpgnav_path_destroy(IntPtr path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_plan(HandleRef planner, ref PathRequest request, HandleRef path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_path_status(HandleRef path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern IntPtr rpgnav_path_reason(HandleRef path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern UIntPtr rpgnav_path_control_points(HandleRef path, [Out] Vec2[] points, UIntPtr capacity);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern UIntPtr rpgnav_path_smoothed_points(HandleRef path, float spacing, [Out] Vec2[] points, UIntPtr capacity);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern int rpgnav_path_door_stop(HandleRef path, out uint door, out Vec2 point);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern int rpgnav_path_fallback_goal(HandleRef path, out Vec2 point);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern uint rpgnav_path_blocker(HandleRef path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern double rpgnav_path_length(HandleRef path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern double rpgnav_path_cost(HandleRef path);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_create(HandleRef world, out IntPtr scheduler);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern void rpgnav_scheduler_destroy(IntPtr scheduler);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_add(HandleRef scheduler, ref Character character);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_remove(HandleRef scheduler, uint id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_set_goal(HandleRef scheduler, uint id, Vec2 goal);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_set_position(HandleRef scheduler, uint id, Vec2 position);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_update(HandleRef scheduler, double now, double micros, long expansions);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern UIntPtr rpgnav_scheduler_events(HandleRef scheduler, [Out] ReplanEvent[] events, UIntPtr capacity);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_path(HandleRef scheduler, uint id, HandleRef path);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern UIntPtr rpgnav_scheduler_size(HandleRef scheduler);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern long rpgnav_scheduler_late_turns(HandleRef scheduler);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_scheduler_set_search_mode(HandleRef scheduler, SearchMode mode);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern SearchMode rpgnav_scheduler_search_mode(HandleRef scheduler);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_create(HandleRef world, byte mobility, Cell[] goals, UIntPtr goalCount, out IntPtr field);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern void rpgnav_field_destroy(IntPtr field);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_set_goals(HandleRef field, Cell[] goals, UIntPtr goalCount);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_move_goal(HandleRef field, Cell from, Cell to);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_track_goal(HandleRef field, Cell to);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_refresh_tracking(HandleRef field, long tileBudget, double micros, out long visits);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_tracking(HandleRef field, out int tracking, out int refreshing, out double travel);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_sync(HandleRef field);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_set_danger(HandleRef field, int layer, Cell cell, byte danger);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_add_danger_stamp(HandleRef field, ref DangerStamp stamp, out uint id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_remove_danger_stamp(HandleRef field, uint id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_set_danger_factor(HandleRef field, byte factor);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_set_door_costs(HandleRef field, float closed, float locked);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_flow(HandleRef field, Vec2 point, out Vec2 direction);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status rpgnav_field_distance(HandleRef field, Cell cell, out double distance);

        // Every string crossing the API is UTF-8 (rpgnav.h): NUL-terminated bytes going in, decoded
        // by hand coming out (Marshal's ANSI conversions use the system code page on Windows).
        public static byte[] Utf8(string text)
        {
            if (text == null) return null;
            byte[] bytes = new byte[System.Text.Encoding.UTF8.GetByteCount(text) + 1];
            System.Text.Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }
        public static string Text(IntPtr text)
        {
            if (text == IntPtr.Zero) return "";
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0) ++length;
            byte[] bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }
        public static string LastError() { return Text(rpgnav_last_error()); }
        // Throws unless the status is a success (or InProgress).
        public static void Check(Status status)
        {
            if (rpgnav_succeeded(status) == 0 && status != Status.InProgress) throw new RpgnavException(status, LastError());
        }
        public static IntPtr Made(Status status, IntPtr handle) { Check(status); return handle; }
    }

    /// <summary>Owns one native handle. Calls pass it as a HandleRef, which keeps this object (so
    /// its handle) alive until the call returns; objects made on a World hold it, so a World is
    /// never finalized while something made on it lives.</summary>
    public abstract class NativeObject : IDisposable
    {
        public IntPtr Handle { get; private set; }
        public HandleRef Ref { get { return new HandleRef(this, Handle); } }
        protected NativeObject(IntPtr handle) { Handle = handle; }
        protected abstract void Destroy(IntPtr handle);
        public void Dispose() { Free(); GC.SuppressFinalize(this); }
        ~NativeObject() { Free(); }
        void Free()
        {
            if (Handle == IntPtr.Zero) return;
            Destroy(Handle);
            Handle = IntPtr.Zero;
        }
        protected void CheckAlive()
        {
            if (Handle == IntPtr.Zero) throw new ObjectDisposedException(GetType().Name);
        }
    }

    /// <summary>A map with its doors and entities, and the game's door hooks.</summary>
    public sealed class World : NativeObject
    {
        DoorPolicy policy;
        DoorStopListener listener;
        GCHandle self;  // the hooks' user pointer: leads the static trampolines back here

        World(IntPtr handle) : base(handle) { }
        protected override void Destroy(IntPtr handle)
        {
            Native.rpgnav_world_destroy(handle);
            if (self.IsAllocated) self.Free();
        }

        public static World Load(string path) { IntPtr w; return new World(Native.Made(Native.rpgnav_world_load(Native.Utf8(path), out w), w)); }
        public static World Parse(string rpgmapText)
        {
            byte[] bytes = System.Text.Encoding.UTF8.GetBytes(rpgmapText);
            IntPtr w;
            return new World(Native.Made(Native.rpgnav_world_parse(bytes, (UIntPtr)bytes.Length, out w), w));
        }
        public static World Create(Layout layout, int width, int height, float tileSize = 1.0f)
        {
            IntPtr w;
            return new World(Native.Made(Native.rpgnav_world_create(layout, width, height, tileSize, out w), w));
        }

        public int Width { get { return Native.rpgnav_world_width(Ref); } }
        public int Height { get { return Native.rpgnav_world_height(Ref); } }
        public byte FindTerrain(string name) { byte t; Native.Check(Native.rpgnav_world_find_terrain(Ref, Native.Utf8(name), out t)); return t; }
        public byte FindMobility(string name) { byte m; Native.Check(Native.rpgnav_world_find_mobility(Ref, Native.Utf8(name), out m)); return m; }
        public byte TerrainAt(Cell cell) { byte t; Native.Check(Native.rpgnav_world_terrain_at(Ref, cell, out t)); return t; }
        public Cell TileAt(Vec2 point) { Cell c; Native.Check(Native.rpgnav_world_tile_at(Ref, point, out c)); return c; }
        public Vec2 TileCentre(Cell cell) { Vec2 v; Native.Check(Native.rpgnav_world_tile_centre(Ref, cell, out v)); return v; }
        public void SetTerrain(Cell cell, byte terrain) { Native.Check(Native.rpgnav_world_set_terrain(Ref, cell, terrain)); }
        public void SetTerrain(Cell low, Cell high, byte terrain) { Native.Check(Native.rpgnav_world_set_terrain_rect(Ref, low, high, terrain)); }

        public uint AddDoor(Cell a, Cell b, DoorState state, string name = "")
        {
            uint id;
            Native.Check(Native.rpgnav_world_add_door(Ref, a, b, state, Native.Utf8(name), out id));
            return id;
        }
        public uint FindDoor(string name) { uint id; Native.Check(Native.rpgnav_world_find_door(Ref, Native.Utf8(name), out id)); return id; }
        public void SetDoorState(uint door, DoorState state) { Native.Check(Native.rpgnav_world_set_door_state(Ref, door, state)); }
        public DoorState GetDoorState(uint door) { DoorState s; Native.Check(Native.rpgnav_world_door_state(Ref, door, out s)); return s; }
        public void RemoveDoor(uint door) { Native.Check(Native.rpgnav_world_remove_door(Ref, door)); }

        /// <summary>The world's danger for characters: a layer's tile (layers 0-7; a map file's
        /// danger layers come first), stamps, and the designer's factor.</summary>
        public void SetDanger(int layer, Cell cell, byte danger) { Native.Check(Native.rpgnav_world_set_danger(Ref, layer, cell, danger)); }
        public byte DangerAt(Cell cell) { byte d; Native.Check(Native.rpgnav_world_danger(Ref, cell, out d)); return d; }
        public uint AddDangerStamp(DangerStamp stamp) { uint id; Native.Check(Native.rpgnav_world_add_danger_stamp(Ref, ref stamp, out id)); return id; }
        public void RemoveDangerStamp(uint id) { Native.Check(Native.rpgnav_world_remove_danger_stamp(Ref, id)); }
        public byte DangerFactor
        {
            get { return Native.rpgnav_world_danger_factor(Ref); }
            set { Native.Check(Native.rpgnav_world_set_danger_factor(Ref, value)); }
        }
        /// <summary>The designer's settings: every planner's and scheduler's defaults.</summary>
        public DesignSettings Settings
        {
            get { DesignSettings s; Native.Check(Native.rpgnav_world_design_settings(Ref, out s)); return s; }
            set { Native.Check(Native.rpgnav_world_set_design_settings(Ref, ref value)); }
        }

        public void AddEntity(Entity entity) { Native.Check(Native.rpgnav_world_add_entity(Ref, ref entity)); }
        public void MoveEntity(uint id, Vec2 position) { Native.Check(Native.rpgnav_world_move_entity(Ref, id, position)); }
        public void RemoveEntity(uint id) { Native.Check(Native.rpgnav_world_remove_entity(Ref, id)); }

        /// <summary>The door rule (null: the default). Called on the thread that plans, during
        /// Planner.Plan and Scheduler.Update; planners on several threads may call it at once, so
        /// keep it thread-safe. It must not edit the world. An exception it throws is rethrown by
        /// the Plan or Update call (the door counts as a wall meanwhile).</summary>
        public void SetDoorPolicy(DoorPolicy rule)
        {
            policy = rule;
            Native.Check(Native.rpgnav_world_set_door_policy(Ref, rule != null ? PolicyTrampoline : null, Self()));
        }
        /// <summary>Told when a plan stops in front of a door (same thread rules as the policy).</summary>
        public void SetDoorListener(DoorStopListener told)
        {
            listener = told;
            Native.Check(Native.rpgnav_world_set_door_listener(Ref, told != null ? ListenerTrampoline : null, Self()));
        }

        IntPtr Self()
        {
            CheckAlive();
            if (!self.IsAllocated) self = GCHandle.Alloc(this, GCHandleType.Weak);
            return GCHandle.ToIntPtr(self);
        }

        // What a hook threw on this thread, for the Plan or Update call to rethrow: an exception
        // must not unwind through the native planner.
        [ThreadStatic] static Exception hookFailure;
        internal static void RethrowHookFailure()
        {
            Exception failure = hookFailure;
            if (failure == null) return;
            hookFailure = null;
            throw new RpgnavException(Status.InternalError, "a door hook threw: " + failure.Message, failure);
        }

        // Static, so that IL2CPP can call them from native code; kept in fields so that the
        // delegates handed to C live as long as the program.
        static readonly Native.DoorPolicyFn PolicyTrampoline = DecideDoor;
        static readonly Native.DoorStopFn ListenerTrampoline = StoppedAtDoor;

        [MonoPInvokeCallback(typeof(Native.DoorPolicyFn))]
        static DoorAction DecideDoor(IntPtr user, ref Native.DoorInfoNative door, ref Traveller traveller, ref float cost)
        {
            try
            {
                World world = (World)GCHandle.FromIntPtr(user).Target;
                if (world == null || world.policy == null) return DoorAction.Avoid;
                DoorInfo info = new DoorInfo
                {
                    Id = door.Id, Name = Native.Text(door.Name), Key = Native.Text(door.Key), A = door.A, B = door.B, State = door.State,
                };
                return world.policy(info, traveller, out cost);
            }
            catch (Exception failure)
            {
                if (hookFailure == null) hookFailure = failure;
                cost = 0.0f;
                return DoorAction.Avoid;
            }
        }

        [MonoPInvokeCallback(typeof(Native.DoorStopFn))]
        static void StoppedAtDoor(IntPtr user, uint character, uint door, Vec2 point)
        {
            try
            {
                World world = (World)GCHandle.FromIntPtr(user).Target;
                if (world != null && world.listener != null) world.listener(character, door, point);
            }
            catch (Exception failure)
            {
                if (hookFailure == null) hookFailure = failure;
            }
        }
    }

    /// <summary>A path result, reused from plan to plan.</summary>
    public sealed class PathResult : NativeObject
    {
        public PathResult() : base(Create()) { }
        static IntPtr Create() { IntPtr p; return Native.Made(Native.rpgnav_path_create(out p), p); }
        protected override void Destroy(IntPtr handle) { Native.rpgnav_path_destroy(handle); }

        public Status Status { get { return Native.rpgnav_path_status(Ref); } }
        public string Reason { get { return Native.Text(Native.rpgnav_path_reason(Ref)); } }
        public uint Blocker { get { return Native.rpgnav_path_blocker(Ref); } }
        public double Length { get { return Native.rpgnav_path_length(Ref); } }
        public double Cost { get { return Native.rpgnav_path_cost(Ref); } }
        public Vec2[] ControlPoints()
        {
            int count = (int)Native.rpgnav_path_control_points(Ref, null, UIntPtr.Zero);
            Vec2[] points = new Vec2[count];
            Native.rpgnav_path_control_points(Ref, points, (UIntPtr)count);
            return points;
        }
        public Vec2[] SmoothedPoints(float spacing)
        {
            int count = (int)Native.rpgnav_path_smoothed_points(Ref, spacing, null, UIntPtr.Zero);
            Vec2[] points = new Vec2[count];
            Native.rpgnav_path_smoothed_points(Ref, spacing, points, (UIntPtr)count);
            return points;
        }
        public bool DoorStop(out uint door, out Vec2 point) { return Native.rpgnav_path_door_stop(Ref, out door, out point) != 0; }
        /// <summary>True when the plan went to the nearest reachable tile (`point`) instead of the goal.</summary>
        public bool FallbackGoal(out Vec2 point) { return Native.rpgnav_path_fallback_goal(Ref, out point) != 0; }
    }

    /// <summary>Plans paths on a world; one per thread.</summary>
    public sealed class Planner : NativeObject
    {
        readonly World world;  // kept alive as long as the planner
        public Planner(World world) : base(Create(world)) { this.world = world; }
        static IntPtr Create(World world) { IntPtr p; return Native.Made(Native.rpgnav_planner_create(world.Ref, out p), p); }
        protected override void Destroy(IntPtr handle) { Native.rpgnav_planner_destroy(handle); }
        public World World { get { return world; } }
        /// <summary>The search of the next plans; setting an unknown mode throws.</summary>
        public SearchMode SearchMode
        {
            get { return Native.rpgnav_planner_search_mode(Ref); }
            set { Native.Check(Native.rpgnav_planner_set_search_mode(Ref, value)); }
        }
        /// <summary>Plans into `path`; the outcome is the status (also path.Status).</summary>
        public Status Plan(PathRequest request, PathResult path)
        {
            Status status = Native.rpgnav_plan(Ref, ref request, path.Ref);
            World.RethrowHookFailure();
            return status;
        }
    }

    /// <summary>Re-plans many characters about once a second within a budget per update.</summary>
    public sealed class Scheduler : NativeObject
    {
        readonly World world;  // kept alive as long as the scheduler
        public Scheduler(World world) : base(Create(world)) { this.world = world; }
        static IntPtr Create(World world) { IntPtr s; return Native.Made(Native.rpgnav_scheduler_create(world.Ref, out s), s); }
        protected override void Destroy(IntPtr handle) { Native.rpgnav_scheduler_destroy(handle); }
        public World World { get { return world; } }

        public int Count { get { return (int)Native.rpgnav_scheduler_size(Ref); } }
        /// <summary>Plans begun more than an interval after their turn came due, over every update
        /// so far: when it grows, the budget cannot keep the cadence.</summary>
        public long LateTurns { get { return Native.rpgnav_scheduler_late_turns(Ref); } }
        /// <summary>The search of the scheduler's plans; setting an unknown mode throws.</summary>
        public SearchMode SearchMode
        {
            get { return Native.rpgnav_scheduler_search_mode(Ref); }
            set { Native.Check(Native.rpgnav_scheduler_set_search_mode(Ref, value)); }
        }
        public void Add(Character character) { Native.Check(Native.rpgnav_scheduler_add(Ref, ref character)); }
        public void Remove(uint id) { Native.Check(Native.rpgnav_scheduler_remove(Ref, id)); }
        public void SetGoal(uint id, Vec2 goal) { Native.Check(Native.rpgnav_scheduler_set_goal(Ref, id, goal)); }
        public void SetPosition(uint id, Vec2 position) { Native.Check(Native.rpgnav_scheduler_set_position(Ref, id, position)); }
        /// <summary>Plans the due characters at time `now` (seconds) within `micros` of wall time or
        /// `expansions` search nodes (both 0: no limit).</summary>
        public void Update(double now, double micros, long expansions)
        {
            Status status = Native.rpgnav_scheduler_update(Ref, now, micros, expansions);
            World.RethrowHookFailure();
            Native.Check(status);
        }
        /// <summary>The last update's events.</summary>
        public ReplanEvent[] Events()
        {
            int count = (int)Native.rpgnav_scheduler_events(Ref, null, UIntPtr.Zero);
            ReplanEvent[] copy = new ReplanEvent[count];
            Native.rpgnav_scheduler_events(Ref, copy, (UIntPtr)count);
            return copy;
        }
        /// <summary>A character's current path into `path`: Ok, or NoPath while it has none.</summary>
        public Status PathOf(uint id, PathResult path)
        {
            Status status = Native.rpgnav_scheduler_path(Ref, id, path.Ref);
            if (status != Status.NoPath) Native.Check(status);
            return status;
        }
    }

    /// <summary>A flow field toward goals, shared by any number of followers.</summary>
    public sealed class Field : NativeObject
    {
        readonly World world;  // kept alive as long as the field
        public Field(World world, byte mobility, Cell[] goals) : base(Create(world, mobility, goals)) { this.world = world; }
        static IntPtr Create(World world, byte mobility, Cell[] goals)
        {
            IntPtr f;
            return Native.Made(Native.rpgnav_field_create(world.Ref, mobility, goals, (UIntPtr)goals.Length, out f), f);
        }
        protected override void Destroy(IntPtr handle) { Native.rpgnav_field_destroy(handle); }
        public World World { get { return world; } }
        public void SetGoals(Cell[] goals) { Native.Check(Native.rpgnav_field_set_goals(Ref, goals, (UIntPtr)goals.Length)); }
        public void MoveGoal(Cell from, Cell to) { Native.Check(Native.rpgnav_field_move_goal(Ref, from, to)); }
        /// <summary>The goal walked to `to`: a step costs what changes near it (CrowdField::trackGoal).</summary>
        public void TrackGoal(Cell to) { Native.Check(Native.rpgnav_field_track_goal(Ref, to)); }
        /// <summary>A slice of the exact refresh: at most `tileBudget` visits and `micros` microseconds (0: no time limit); the visits made.</summary>
        public long RefreshTracking(long tileBudget, double micros = 0.0)
        {
            long visits;
            Native.Check(Native.rpgnav_field_refresh_tracking(Ref, tileBudget, micros, out visits));
            return visits;
        }
        /// <summary>Whether the field tracks a walking goal.</summary>
        public bool Tracking { get { int tracking, refreshing; double travel; Native.Check(Native.rpgnav_field_tracking(Ref, out tracking, out refreshing, out travel)); return tracking != 0; } }
        /// <summary>The goal's walk since the last exact refresh, in tile steps (distances exceed the exact ones by at most twice this).</summary>
        public double TrackedTravel { get { int tracking, refreshing; double travel; Native.Check(Native.rpgnav_field_tracking(Ref, out tracking, out refreshing, out travel)); return travel; } }
        /// <summary>Catches up with the world's tile and door edits.</summary>
        public void Sync() { Native.Check(Native.rpgnav_field_sync(Ref)); }
        /// <summary>The field's own danger (it starts with the map file's layers and the world's factor).</summary>
        public void SetDanger(int layer, Cell cell, byte danger) { Native.Check(Native.rpgnav_field_set_danger(Ref, layer, cell, danger)); }
        public uint AddDangerStamp(DangerStamp stamp) { uint id; Native.Check(Native.rpgnav_field_add_danger_stamp(Ref, ref stamp, out id)); return id; }
        public void RemoveDangerStamp(uint id) { Native.Check(Native.rpgnav_field_remove_danger_stamp(Ref, id)); }
        public void SetDangerFactor(byte factor) { Native.Check(Native.rpgnav_field_set_danger_factor(Ref, factor)); }
        /// <summary>Door bashing: closed and locked doors pass at these extra tile steps (below 0: they block).</summary>
        public void SetDoorCosts(float closed, float locked) { Native.Check(Native.rpgnav_field_set_door_costs(Ref, closed, locked)); }
        public Vec2 Flow(Vec2 point) { Vec2 d; Native.Check(Native.rpgnav_field_flow(Ref, point, out d)); return d; }
        /// <summary>Steps to the nearest goal on cost-1 terrain, or -1 when none is reached.</summary>
        public double Distance(Cell cell) { double d; Native.Check(Native.rpgnav_field_distance(Ref, cell, out d)); return d; }
    }
}
