#!/usr/bin/python3
"""An SFTP (and SCP) server with a user database of its own: one user, one password.

OpenSSH's sshd checks passwords against the system's accounts, which a test cannot make; this
server (asyncssh, Debian's python3-asyncssh) accepts exactly USER with PASSWORD and nothing
else (no public keys, no agent), so a login it accepts was a password login. It serves ROOT as
/ (chrooted) on 127.0.0.1:PORT with the private host key in HOST_KEY (an OpenSSH key file), and
writes one line per password tried to stdout: the user name and whether it was accepted, never
the password. Started by Tests/EndToEndTests (PasswordSFTPServer); SIGTERM ends it.

    sftp-password-server.py ROOT PORT HOST_KEY USER PASSWORD
"""

import asyncio
import sys
import warnings

# Debian's cryptography warns about the old ciphers asyncssh imports; nothing this server uses.
warnings.simplefilter("ignore")

import asyncssh  # noqa: E402

root, port, host_key, user, password = sys.argv[1:6]


class PasswordOnly(asyncssh.SSHServer):
    def begin_auth(self, username):
        return True  # every user must authenticate

    def password_auth_supported(self):
        return True

    def validate_password(self, username, given):
        accepted = username == user and given == password
        print(f"password login {username}: {'accepted' if accepted else 'refused'}", flush=True)
        return accepted


async def serve():
    await asyncssh.listen(
        "127.0.0.1",
        int(port),
        server_host_keys=[host_key],
        server_factory=PasswordOnly,
        sftp_factory=lambda channel: asyncssh.SFTPServer(channel, chroot=root),
        allow_scp=True,
    )
    print(f"listening on 127.0.0.1:{port}", flush=True)
    await asyncio.Event().wait()


asyncio.run(serve())
