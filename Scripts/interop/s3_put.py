"""Puts files of the interop server's directory into moto's bucket, as objects named by their
paths below it: moto keeps objects in memory, not in a directory, so each file a scenario
publishes, changes or makes is sent after it is written.

    python3 s3_put.py ENDPOINT BUCKET ROOT NAME...   (a NAME that is a directory: every file below it)
"""
import os
import sys

import boto3
from botocore.config import Config

endpoint, bucket, root, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                  config=Config(max_pool_connections=16))
if bucket not in [b["Name"] for b in s3.list_buckets().get("Buckets", [])]:
    s3.create_bucket(Bucket=bucket)
for name in names:
    path = os.path.join(root, name)
    files = [path] if os.path.isfile(path) else [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]
    for file in files:
        with open(file, "rb") as body:
            s3.put_object(Bucket=bucket, Key=os.path.relpath(file, root), Body=body)
