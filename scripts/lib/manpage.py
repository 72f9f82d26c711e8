#!/usr/bin/env python3
"""Writes audiograph(1) in roff from the CLI's own description (`audiograph --experimental-dump-help`),
so the manual always matches the binary. (swift-argument-parser's generate-manual plugin does the
same but needs a debug build of the whole package.)

  manpage.py DUMP.json VERSION > audiograph.1
"""
import datetime
import json
import sys


def esc(text):
    """roff-safe text: backslashes, leading dots/apostrophes, hyphens in option names."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def synopsis(arg):
    name = arg.get("preferredName") or (arg.get("names") or [{}])[0]
    dash = "-" if name.get("kind") == "short" else "--"
    if arg["kind"] == "positional":
        text = f"<{arg['valueName']}>"
    elif arg["kind"] == "flag":
        text = dash + name["name"]
    else:
        text = f"{dash}{name['name']} <{arg['valueName']}>"
    return text + ("..." if arg.get("isRepeating") else "")


def options(args):
    out = []
    for arg in args:
        if not arg.get("shouldDisplay", True):
            continue
        names = ", ".join(("-" if n["kind"] == "short" else "--") + n["name"] for n in arg.get("names", []))
        head = synopsis(arg) if arg["kind"] == "positional" else names
        if arg["kind"] == "option":
            head += f" <{arg['valueName']}>"
        text = arg.get("abstract", "")
        if arg.get("defaultValue") not in (None, ""):
            text += f" (default: {arg['defaultValue']})"
        out += [".TP", "\\fB" + esc(head) + "\\fR", esc(text)]
    return out


def commands(cmd, path, out):
    for sub in cmd.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        full = path + [sub["commandName"]]
        args = [f"[{synopsis(a)}]" if a.get("isOptional") else synopsis(a)
                for a in sub.get("arguments", []) if a.get("shouldDisplay", True) and a["valueName"] != "help"]
        out += [".SS " + esc(" ".join(full)), "\\fB" + esc(" ".join(full)) + "\\fR " + esc(" ".join(args)), ".br",
                esc(sub.get("abstract", ""))]
        if sub.get("discussion"):
            out += [".PP", esc(sub["discussion"])]
        out += [".RS"] + options(sub.get("arguments", [])) + [".RE"]
        commands(sub, full, out)


def main():
    dump, version = json.load(open(sys.argv[1]))["command"], sys.argv[2]
    name = dump["commandName"]
    date = datetime.date.today().isoformat()
    out = [f'.TH {name.upper()} 1 "{date}" "{name} {esc(version)}" "User Commands"',
           ".SH NAME", f"{name} \\- " + esc(dump.get("abstract", "")),
           ".SH SYNOPSIS", f"\\fB{name}\\fR <command> [options]",
           ".SH DESCRIPTION", esc(dump.get("discussion") or dump.get("abstract", "")),
           ".PP", "Every command takes \\fB\\-\\-help\\fR. With no \\fB\\-\\-instrument\\fR the instrument is looked up in order: "
           "\\fI$AUDIOGRAPH_HOME/Instruments/default.json\\fR, \\fI${XDG_CONFIG_HOME:\\-~/.config}/audiograph/default.json\\fR, "
           "the source checkout the binary was built in, and \\fI<prefix>/share/audiograph/Instruments/default.json\\fR.",
           ".SH COMMANDS"]
    commands(dump, [name], out)
    out += [".SH FILES",
            ".TP", "\\fI~/.config/audiograph/default.json\\fR", "A per-user instrument; overrides the bundled one.",
            ".TP", "\\fI~/.config/audiograph/audiograph.env\\fR",
            "Settings of the systemd user unit (AUDIOGRAPH_ARGS, e.g. \\-\\-device hw:USB \\-\\-period 128).",
            ".TP", "\\fI<prefix>/share/audiograph/\\fR", "The bundled instruments, presets and sounds.",
            ".SH SEE ALSO", "\\fBaconnect\\fR(1), \\fBaplaymidi\\fR(1), \\fBsystemctl\\fR(1)"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
