# Runs a command on a pseudo-terminal, for tests of what a program does on a terminal (python3's pty module:
# no native build). Usage: python3 pty-run.py <mode> <command> [args...]
#   mode `stdin`: only stdin is the terminal; the command's stdout and stderr are this script's.
#   mode `all`:   stdin, stdout and stderr are the terminal; what the terminal shows is copied to our stdout.
# What arrives on our stdin is typed into the terminal; when it ends, Ctrl-D is typed (end of input). A \x03
# in it is Ctrl-C: the terminal sends SIGINT to the command. Exits with the command's code (128 + signal).
import os
import pty
import select
import sys

mode = sys.argv[1]
command = sys.argv[2:]
out_fd = os.dup(1)
err_fd = os.dup(2)
pid, master = pty.fork()
if pid == 0:
    if mode == 'stdin':
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
    os.execvp(command[0], command)

typing = True
while True:
    watched = [master] + ([0] if typing else [])
    ready, _, _ = select.select(watched, [], [])
    if 0 in ready:
        data = os.read(0, 4096)
        if data:
            os.write(master, data)
        else:
            typing = False
            os.write(master, b'\x04')
    if master in ready:
        try:
            shown = os.read(master, 65536)
        except OSError:
            break
        if not shown:
            break
        if mode == 'all':
            os.write(1, shown)

_, status = os.waitpid(pid, 0)
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
