#!/bin/zsh -f
# zsh-complete.zsh FPATH_DIR LINE: types LINE and a TAB into an interactive zsh (in a zpty)
# with FPATH_DIR first on $fpath and compinit loaded, and prints every candidate the
# completion functions handed to compadd, one per line, sorted.
zmodload zsh/zpty
zmodload zsh/datetime
hits=$(mktemp)
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; setopt no_beep"
# Every compadd also records its candidates on fd 2, which goes to the hits file.
zpty -w z "compadd() { builtin compadd \"\$@\"; local -a __hits; builtin compadd -O __hits \"\$@\"; print -l -- '<<'\${^__hits}'>>' >&2 }"
zpty -w z "exec 2>$hits"
zpty -n -w z "$2"$'\t'
# Wait (up to 10 s) until the completion has run: the candidates stop changing.
deadline=$(( EPOCHREALTIME + 10 ))
previous=-1
while (( EPOCHREALTIME < deadline )); do
  size=$(wc -c <$hits)
  (( size > 0 && size == previous )) && break
  previous=$size
  sleep 0.3
done
zpty -w z $'\C-c'
zpty -d z
sed -n 's/^<<\(.*\)>>$/\1/p' $hits | sort -u
rm -f $hits
