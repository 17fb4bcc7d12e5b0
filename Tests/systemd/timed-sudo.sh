#!/bin/sh
# timed-sudo: `sudo -k true`, then "timed-sudo: N ms" (its wall time, for the medians of
# fprintd-sudo.sh); exits with sudo's status.
start=$(date +%s%N)
sudo -k true
code=$?
end=$(date +%s%N)
echo "timed-sudo: $(((end - start) / 1000000)) ms"
exit $code
