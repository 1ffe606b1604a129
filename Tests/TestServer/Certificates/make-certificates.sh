#!/usr/bin/env bash
# Makes the certificates the TLS tests use and writes them next to this script, where they are
# committed: a test CA; leaves it signed for 127.0.0.1 and localhost (good, other, wrong name,
# expired); a self-signed leaf; a client certificate; and for each leaf NAME.pin, the
# `sha256//BASE64` pin of its public key as `--pin-pubkey` takes it.
# Keys are P-256. Valid ones run for a hundred years from the day this was run; the expired one
# ended in 2020. These keys protect nothing: they exist only for tests on loopback.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

cat > openssl.cnf <<'CONF'
[ca]
default_ca = test_ca
[test_ca]
database = index.txt
new_certs_dir = issued
serial = serial
default_md = sha256
policy = any_name
unique_subject = no
copy_extensions = none
[any_name]
commonName = supplied
[req]
distinguished_name = name
prompt = no
[name]
[ca_extensions]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
[wrong_name]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:wrong.example
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectAltName = DNS:client.afget.test
CONF
touch index.txt
mkdir issued
echo 1000 > serial

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1-key.pem" 2>/dev/null; }
pin() { printf 'sha256//%s\n' "$(openssl pkey -in "$1-key.pem" -pubout -outform DER | openssl dgst -sha256 -binary | base64)" > "$1.pin"; }
days=36500

key ca
openssl req -config openssl.cnf -new -x509 -key ca-key.pem -subj "/CN=afget test CA" -days $days \
    -extensions ca_extensions -out ca.pem

# signed NAME EXTENSIONS START END: a leaf signed by the CA (dates as YYYYMMDDHHMMSSZ).
signed() {
    key "$1"
    openssl req -config openssl.cnf -new -key "$1-key.pem" -subj "/CN=afget test $1" -out "$1.csr"
    openssl ca -config openssl.cnf -batch -notext -cert ca.pem -keyfile ca-key.pem -extensions "$2" \
        -startdate "$3" -enddate "$4" -in "$1.csr" -out "$1.pem" 2>/dev/null
    pin "$1"
}
start="$(date -u -d '-1 day' +%Y%m%d%H%M%SZ)"
end="$(date -u -d "+$days days" +%Y%m%d%H%M%SZ)"
signed good server "$start" "$end"
signed other server "$start" "$end"
signed wrong-name wrong_name "$start" "$end"
signed expired server 20200101000000Z 20200102000000Z
signed client client "$start" "$end"

key self-signed
openssl req -config openssl.cnf -new -x509 -key self-signed-key.pem -subj "/CN=afget test self-signed" -days $days \
    -extensions server -out self-signed.pem
pin self-signed

rm -f "$here"/*.pem "$here"/*.pin
rm ca-key.pem
cp ./*.pem ./*.pin "$here/"
