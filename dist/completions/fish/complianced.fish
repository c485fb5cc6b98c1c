function __complianced_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __complianced_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __complianced_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __complianced_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __complianced_parse_tokens -S
    set -l unparsed_tokens (__complianced_tokens -pc)
    switch $unparsed_tokens[1]
    case 'complianced'
        __complianced_parse_subcommand 0 'state-dir=' 'app=' 'authority=' 'oidc-issuer=' 'client-id=' 'client-secret-file=' 'client-auth=' 'mam-url=' 'ca-file=' 'scope=+' 'clock=' 'wipe-hook=' 'wipe-hook-timeout=' 'restart-hook=' 'restart-hook-timeout=' 'identity-hook=' 'identity-hook-timeout=' 'redirect-port=' 'http-timeout=' 'event-retention=' 'listen=' 'test-hooks' 'log-level=' 'log-format=' 'metrics-listen=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __complianced_parse_subcommand -r 1 'version'
        end
    end
end

function __complianced_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __complianced_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __complianced_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __complianced_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__complianced_tokens -p)
    if test -z "$(__complianced_tokens -t)"
        set -l index (count (__complianced_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'complianced' -f
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" state-dir' -l 'state-dir' -d 'Directory for the store, the vault and the control socket (created 0700).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" app' -l 'app' -d 'The app\'s Info.plist (IntuneMAMSettings: ADALClientId, ADALAuthority, ADALRedirectUri; MSALClientCapabilities).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" authority' -l 'authority' -d 'Issuer authority, an Entra-shaped {host}/{tenant}, e.g. http://127.0.0.1:8080/contoso.com (overrides the profile\'s ADALAuthority; with neither, the common authority https://login.microsoftonline.com/common).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" oidc-issuer' -l 'oidc-issuer' -d 'Any OpenID Connect issuer instead of an Entra authority (discovery at URL/.well-known/openid-configuration; its issuer must be URL).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" client-id' -l 'client-id' -d 'The client id at the issuer (overrides the profile\'s ADALClientId).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, read from FILE (owner-only: refused when group or others may read it).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" client-auth' -l 'client-auth' -d 'How the secret is sent: basic (client_secret_basic, the default) or post (client_secret_post).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" mam-url' -l 'mam-url' -d 'MAM service base URL (default for --authority: its origin + /mam/v1, and an authority override then brings its own; an --oidc-issuer has none unless given: no registration, no remediation).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" ca-file' -l 'ca-file' -d 'PEM file of CAs to trust for https (verification is never disabled).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced"' -l 'scope' -d 'A scope sign-ins request when the request names none (repeatable).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" clock' -l 'clock' -d 'real, or virtual (time moves only through POST /v1/clock/advance).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" wipe-hook' -l 'wipe-hook' -d 'Command run by /bin/sh on every selective wipe, with COMPLIANCE_WIPE_ACCOUNT set.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" wipe-hook-timeout' -l 'wipe-hook-timeout' -d 'Seconds the wipe hook may run before it is killed.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" restart-hook' -l 'restart-hook' -d 'The app\'s restartApplication: command run by /bin/sh when a first policy restarts the app, with COMPLIANCE_RESTART_ACCOUNT, COMPLIANCE_RESTART_DIRECTORY and COMPLIANCE_STATE_DIRECTORY set; exit 0: the app restarts itself and reports it.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" restart-hook-timeout' -l 'restart-hook-timeout' -d 'Seconds the restart hook may run before it is killed (its answer is then NO).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" identity-hook' -l 'identity-hook' -d 'The app\'s identitySwitchRequired and addIdentity answers: command run by /bin/sh with COMPLIANCE_IDENTITY_CALL, COMPLIANCE_IDENTITY_ACCOUNT (empty: no user), COMPLIANCE_IDENTITY_REASON and COMPLIANCE_STATE_DIRECTORY set; exit 0: Success, anything else: Failed. Without it the daemon answers Success.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" identity-hook-timeout' -l 'identity-hook-timeout' -d 'Seconds the identity hook may run before it is killed (its answer is then Failed).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" redirect-port' -l 'redirect-port' -d 'The loopback port a browser sign-in\'s redirect comes back to (http://127.0.0.1:PORT/), for issuers that match redirect URIs exactly; by default an ephemeral port each time (RFC 8252).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" http-timeout' -l 'http-timeout' -d 'Seconds an outgoing request may take.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" event-retention' -l 'event-retention' -d 'How many of the newest events the event log keeps; older ones are deleted as new ones arrive.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" listen' -l 'listen' -d 'Also serve the control API on loopback TCP, e.g. 127.0.0.1:0.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" test-hooks' -l 'test-hooks' -d 'Enable the test routes (/v1/test/crash-after). Never in production.'
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" log-level' -l 'log-level' -d 'trace, debug, info, notice, warning, error or critical.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" log-format' -l 'log-format' -d 'text, or json (one JSON object a line: time, level, label, message, metadata).' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" metrics-listen' -l 'metrics-listen' -d 'Serve Prometheus metrics at GET /metrics on loopback TCP, e.g. 127.0.0.1:9464.' -rfka ''
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" version' -l 'version' -d 'Show the version.'
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'complianced' -n '__complianced_should_offer_completions_for_positional "complianced" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'complianced' -n '__complianced_should_offer_completions_for_flags_or_options "complianced help" version' -l 'version' -d 'Show the version.'
