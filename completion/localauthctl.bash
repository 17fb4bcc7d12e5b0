# bash completion for localauthctl(1), the LocalAuthentication broker's control tool.
# Installed as /usr/share/bash-completion/completions/localauthctl (loaded on first use).
# Sensor names are asked from the running daemon (`localauthctl --json sensors`, at most
# one second); without a daemon they are simply not offered.

_localauthctl_sensors() {
    local socket=("$@")
    timeout 1 localauthctl "${socket[@]}" --json sensors 2>/dev/null |
        grep '^{"sensors"' | grep -o '"name":"[^"]*"' | sed 's/^"name":"//; s/"$//'
}

_localauthctl() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    local commands="status can-evaluate evaluate cancel monitor sensors sim enroll unenroll passcode reset-lockout rights handoff ssh-key ssh-agent doctor trace replay agent login socket help"
    local policies="biometrics owner companion biometrics-or-companion wrist deviceOwnerAuthentication deviceOwnerAuthenticationWithBiometrics deviceOwnerAuthenticationWithCompanion deviceOwnerAuthenticationWithBiometricsOrCompanion deviceOwnerAuthenticationWithWristDetection"
    local global_options="--socket --app-id --json --help"

    # The subcommand (first word that is not an option or an option's value), its position,
    # and --socket if given (to ask the same daemon for sensor names).
    local command="" command_index=0 socket=() i word
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            --socket | --app-id | --reason | --context-reuse | --requirement | --secret | --secret-file | --data | --file | --out | --payload | --ttl | --policy | --app | --pid | --passcode | --user | --old | --process)
                [ "$word" = --socket ] && socket=(--socket "${COMP_WORDS[i + 1]}")
                ((i++))
                ;;
            --socket=*) socket=("$word") ;;
            -*) ;;
            *)
                if [ -z "$command" ]; then
                    command=$word
                    command_index=$i
                fi
                ;;
        esac
    done

    case $prev in
        --socket | --secret-file | --file | --out)
            COMPREPLY=($(compgen -f -- "$cur"))
            return
            ;;
        --policy)
            COMPREPLY=($(compgen -W "$policies" -- "$cur"))
            return
            ;;
        --requirement)
            COMPREPLY=($(compgen -W "default biometry biometry-passcode biometryCurrentSet" -- "$cur"))
            return
            ;;
        --app-id | --reason | --context-reuse | --secret | --data | --payload | --ttl | --app | --pid | --passcode | --user | --old | --process)
            return
            ;;
    esac

    if [ -z "$command" ]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$global_options" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local position=$((COMP_CWORD - command_index))
    local words="" options="$global_options"
    case $command in
        can-evaluate) [ $position -eq 1 ] && words=$policies ;;
        evaluate)
            [ $position -eq 1 ] && words=$policies
            options="$options --reason --context-reuse --non-interactive"
            ;;
        sim)
            if [ $position -eq 1 ]; then
                words=$(_localauthctl_sensors "${socket[@]}")
            else
                words="MATCH NOMATCH RETRY CANCEL FALLBACK PASSCODE SLEEP DISCONNECT CONNECT ENROLL UNENROLL DEFAULT WAIT"
            fi
            options="$options --replace"
            ;;
        enroll | unenroll)
            [ $position -eq 1 ] && words=$(_localauthctl_sensors "${socket[@]}")
            options="$options --user"
            ;;
        passcode)
            [ $position -eq 1 ] && words="set clear"
            options="$options --old --user"
            ;;
        agent) options="$options --session --process --list --user" ;;
        reset-lockout) options="$options --user" ;;
        rights)
            [ $position -eq 1 ] && words="save show sign secret remove remove-all"
            options="$options --reason --requirement --secret --secret-file --data --file --out"
            ;;
        handoff)
            [ $position -eq 1 ] && words="create list authorize redeem"
            options="$options --payload --ttl --reason --policy"
            ;;
        ssh-key)
            [ $position -eq 1 ] && words="create list public delete"
            options="$options --reuse --keep-on-lock --policy"
            ;;
        ssh-agent) options="$options --listen" ;;
        doctor) options="$options --app" ;;
        trace) options="$options --app --pid" ;;
        replay)
            [ $position -eq 1 ] && words=$(compgen -f -- "$cur")
            options="$options --passcode"
            ;;
        help) [ $position -eq 1 ] && words=$commands ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    fi
}

complete -F _localauthctl localauthctl
