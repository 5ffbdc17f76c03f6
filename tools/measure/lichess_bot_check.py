"""Games through lichess-bot's own test harness: its mocked lichess.org (test_bot/lichess.py)
and its real game loop (lib/lichess_bot.py, lib/engine_wrapper.py, python-chess), with Avocet
as the bot (Black) and a Stockfish 15.1 level as the opponent (White). Counts every warning and
error that lichess-bot or python-chess logs and every line the engine writes on stderr.

    python3 -m tools.measure.lichess_bot_check \\
        --lichess-bot ~/lichess-bot --python-chess ~/python-chess \\
        --engine build/avocet --games 5 --via uci_options \\
        --option UCI_LimitStrength=true --option UCI_Elo=1450

The bot's options are the README's lichess-bot block (Move Overhead 100, SyzygyPath "",
UCI_ShowWDL true, pondering on; Threads 1 and Hash 16 so that the check fits beside other work),
plus each --option, passed under `uci_options` (as `setoption` once the engine runs) or under
`engine_options` (as `--Name=value` arguments), as --via says. The harness's own opponent plays
a fixed scholar's mate and so cannot play a real engine; here White is Stockfish at --sf-elo with
--sf-movetime a move, and the game runs to its end under python-chess's rules.

Needs a checkout of lichess-bot (https://github.com/lichess-bot-devs/lichess-bot) and its
Python packages: python-chess (not in Debian 12: --python-chess names a checkout), and
PyYAML, requests, backoff and rich (Debian: python3-yaml python3-requests python3-backoff
python3-rich). Exit status 0 when every game ended without a time loss and nothing was warned,
1 otherwise; a game that has not ended after --game-timeout seconds (an engine that exits at
once, as Avocet does on a bad `engine_options` value, makes lichess-bot retry it forever) fails
the check with the engine's last stderr line.
"""

import argparse
import datetime
import logging
import os
import signal
import sys
import tempfile
import threading
from multiprocessing import Manager
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import queue

STOCKFISH = "/usr/games/stockfish"
report_fd = 1  # the real standard output while the games' output goes to a file


def descendants(pid: int) -> list[int]:
    """Every process below pid, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    parent = int(file.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def give_up(seconds: float, game: int, stdout: int, stderr_path: str) -> NoReturn:
    """A game that does not end (an engine that never starts makes lichess-bot retry forever):
    say so with the engine's last stderr line, stop every process of the check, exit 1."""
    with open(stderr_path, errors="replace") as file:
        lines = [line.rstrip() for line in file if line.strip()]
    last = f"; the engine's last stderr line: {lines[-1]}" if lines else ""
    os.write(stdout, f"game {game}: not over after {seconds:.0f} s{last}\n".encode())
    for pid in descendants(os.getpid()):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(1)


def option_value(text: str) -> bool | int | str:
    """YAML-like typing for NAME=VALUE: true/false, integers, else the text."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def simulate_lichess(chess: ModuleType, engine: Any, args: argparse.Namespace,
                     move_queue: "queue.Queue[Any]", board_queue: "queue.Queue[Any]",
                     clock_queue: "queue.Queue[Any]", results: "queue.Queue[str]") -> None:
    """The server's side of one game, over the harness's queues: White (Stockfish) moves, the
    game stream gets the board and clocks, and the bot's move comes back on move_queue (None
    asks for the current state again). Clocks run on the wall clock, with the increment."""
    board = chess.Board()
    flagged = ""
    start = datetime.timedelta(seconds=args.clock)
    increment = datetime.timedelta(seconds=args.increment)
    white_clock, black_clock = start, start
    while not board.is_game_over():
        if board.turn == chess.WHITE:
            board.push(engine.play(board, chess.engine.Limit(time=args.sf_movetime)).move)
            board_queue.put(board.copy())
            clock_queue.put((white_clock, black_clock, increment))
        else:
            started = datetime.datetime.now()
            while (move := move_queue.get()) is None:
                board_queue.put(board.copy())
                clock_queue.put((white_clock, black_clock, increment))
                move_queue.task_done()
            move_queue.task_done()
            if move not in board.legal_moves:
                # The mocked stream ends only with the game: nothing sensible is left to do.
                os.write(report_fd, f"illegal move {move.uci()} in {board.fen()}\n".encode())
                os._exit(1)
            board.push(move)
            if len(board.move_stack) > 2:
                black_clock -= datetime.datetime.now() - started
                black_clock += increment
            if black_clock.total_seconds() < 0 and not flagged:
                flagged = f", flagged at ply {len(board.move_stack)}"
    board_queue.put(board.copy())
    clock_queue.put((white_clock, black_clock, increment))
    results.put(f"{board.result()} in {len(board.move_stack)} plies "
                f"({board.outcome().termination.name.lower()}{flagged})")


def play_game(modules: tuple[ModuleType, ...], args: argparse.Namespace, pgn_folder: str,
              log_file: str) -> str:
    """One game: lichess-bot with the README's options and --option, against Stockfish through
    the mocked server; returns how it ended."""
    chess, yaml, config, lichess_bot, mock = modules
    with open("config.yml.default") as file:
        raw = yaml.safe_load(file)
    raw["token"] = ""
    raw["pgn_directory"] = pgn_folder
    engine = raw["engine"]
    engine["dir"] = os.path.dirname(os.path.abspath(args.engine))
    engine["name"] = os.path.basename(args.engine)
    engine["protocol"] = "uci"
    engine["ponder"] = True
    engine["uci_options"] = {"Threads": 1, "Hash": 16, "Move Overhead": 100, "SyzygyPath": "",
                             "UCI_ShowWDL": True}
    extra = dict((name, option_value(value)) for name, value in
                 (o.split("=", 1) for o in args.option))
    if args.via == "uci_options":
        engine["uci_options"].update(extra)
    else:
        engine["engine_options"] = extra
    config.insert_default_values(raw)
    configuration = config.Configuration(raw)
    manager = Manager()
    board_queue, clock_queue, move_queue, results = (manager.Queue() for _ in range(4))
    server = mock.Lichess(move_queue, board_queue, clock_queue)
    profile = server.get_profile()
    lichess_bot.disable_restart()
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": args.sf_elo, "Hash": 16})
    simulator = threading.Thread(target=simulate_lichess, args=[
        chess, stockfish, args, move_queue, board_queue, clock_queue, results])
    simulator.start()
    lichess_bot.start(server, profile, configuration, logging.INFO, log_file, True, one_game=True)
    simulator.join()
    stockfish.quit()
    return results.get()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lichess-bot", required=True, help="a lichess-bot checkout")
    parser.add_argument("--python-chess", help="a python-chess checkout, if it is not installed")
    parser.add_argument("--engine", default="build/avocet")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--via", choices=["uci_options", "engine_options"],
                        default="uci_options")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--sf-elo", type=int, default=1350)
    parser.add_argument("--sf-movetime", type=float, default=0.05)
    parser.add_argument("--clock", type=float, default=30.0, help="seconds a side")
    parser.add_argument("--increment", type=float, default=0.3)
    parser.add_argument("--game-timeout", type=float, default=600.0,
                        help="seconds after which a game that has not ended fails the check")
    args = parser.parse_args()
    for option in args.option:
        if "=" not in option:
            sys.exit(f"--option {option!r}: expected NAME=VALUE")
    if not os.path.isfile(os.path.join(args.lichess_bot, "test_bot", "lichess.py")):
        sys.exit(f"{args.lichess_bot}: not a lichess-bot checkout (no test_bot/lichess.py)")
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"{args.engine}: not an executable engine")
    args.engine = os.path.abspath(args.engine)
    # Third-party checkouts named on the command line (Avocet's own modules come from the
    # package): lichess-bot imports its `lib` and `test_bot` from its folder.
    if args.python_chess:
        sys.path.insert(0, os.path.abspath(args.python_chess))
    sys.path.insert(0, os.path.abspath(args.lichess_bot))
    os.chdir(args.lichess_bot)  # lichess-bot reads its files relative to its folder
    try:
        import chess
        import chess.engine
        import yaml
        from lib import config, lichess_bot
        import test_bot.lichess as mock
    except ImportError as error:
        sys.exit(f"cannot import lichess-bot's modules: {error}")

    # lichess-bot plays each game in a process of its own, which logs to the file it is given:
    # the warnings are counted there.
    work = tempfile.mkdtemp(prefix="lichess-bot-check-")
    log_file = os.path.join(work, "lichess-bot.log")
    lichess_bot.logging_configurer(logging.INFO, log_file, True)
    # The engine's stderr is this process's: it goes to a file whose lines are counted. The
    # console's log goes to a file too (the log file holds the same records).
    global report_fd
    saved_stdout, saved_stderr = os.dup(1), os.dup(2)
    report_fd = saved_stdout
    with open(os.path.join(work, "console.txt"), "w") as console, \
            open(os.path.join(work, "stderr.txt"), "w+") as stderr_file:
        os.dup2(console.fileno(), 1)
        os.dup2(stderr_file.fileno(), 2)
        outcomes = []
        try:
            pgn_folder = os.path.join(work, "games")
            for game in range(args.games):
                watchdog = threading.Timer(args.game_timeout, give_up, [
                    args.game_timeout, game + 1, saved_stdout, stderr_file.name])
                watchdog.start()
                outcomes.append(play_game((chess, yaml, config, lichess_bot, mock), args,
                                          pgn_folder, log_file))
                watchdog.cancel()
                os.write(saved_stdout, f"game {game + 1}: {outcomes[-1]}\n".encode())
            pgns = len(os.listdir(pgn_folder)) if os.path.isdir(pgn_folder) else 0
        finally:
            sys.stdout.flush()
            os.dup2(saved_stdout, 1)
            os.dup2(saved_stderr, 2)
        stderr_file.seek(0)
        engine_lines = [line.rstrip() for line in stderr_file if line.strip()]
    with open(log_file, errors="replace") as file:
        warned = [line.rstrip() for line in file
                  if any(f" {level} " in line for level in ("WARNING", "ERROR", "CRITICAL"))]
    finished = sum(1 for o in outcomes if "flagged" not in o)
    print(f"\n{finished} of {args.games} games ended without a time loss ({', '.join(outcomes)}); "
          f"{pgns} PGN file(s) written (one name per game id); "
          f"options via {args.via}: {', '.join(args.option) or '-'}")
    print(f"{len(warned)} warning(s) or error(s) logged by lichess-bot or python-chess; "
          f"{len(engine_lines)} line(s) on stderr; the log and the games are in {work}")
    for line in warned + engine_lines:
        print(f"  {line}")
    sys.exit(0 if finished == args.games and not warned and not engine_lines else 1)


if __name__ == "__main__":
    main()
