function __mockauth_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __mockauth_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __mockauth_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __mockauth_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __mockauth_parse_tokens -S
    set -l unparsed_tokens (__mockauth_tokens -pc)
    switch $unparsed_tokens[1]
    case 'mockauth'
        __mockauth_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'serve'
            __mockauth_parse_subcommand 0 'fixtures=' 'host=' 'port=' 'tls-cert=' 'tls-key=' 'tls-self-signed=' 'public-url=' 'log-level=' 'log-format=' 'version' 'h/help'
        case 'check'
            __mockauth_parse_subcommand 1 'version' 'h/help'
        case 'help'
            __mockauth_parse_subcommand -r 1 'version'
        end
    end
end

function __mockauth_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __mockauth_parse_subcommand -S -a positional_count
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

function __mockauth_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __mockauth_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__mockauth_tokens -p)
    if test -z "$(__mockauth_tokens -t)"
        set -l index (count (__mockauth_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'mockauth' -f
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth" version' -l 'version' -d 'Show the version.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_positional "mockauth" -eq 1' -fa 'serve' -d 'Serve the issuer, the MAM service and the admin API on one port.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_positional "mockauth" -eq 1' -fa 'check' -d 'Check a tenant fixture file as serve reads it, without serving.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_positional "mockauth" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" fixtures' -l 'fixtures' -d 'Fixture file (tenant, apps, users, policy).' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" host' -l 'host' -d 'Address to bind.' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" port' -l 'port' -d 'Port to bind; 0 picks a free one.' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" tls-cert' -l 'tls-cert' -d 'PEM certificate chain for https (with --tls-key).' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" tls-key' -l 'tls-key' -d 'PEM private key for https (with --tls-cert).' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" tls-self-signed' -l 'tls-self-signed' -d 'Generate a certificate for 127.0.0.1 and localhost; write DIR/cert.pem for clients to trust.' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" public-url' -l 'public-url' -d 'The URL clients reach the server by (e.g. behind a proxy): used for iss and every URL in answers, whatever the Host header.' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" log-level' -l 'log-level' -d 'trace, debug, info, notice, warning, error or critical.' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" log-format' -l 'log-format' -d 'text, or json (one JSON object a line: time, level, label, message, metadata).' -rfka ''
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" version' -l 'version' -d 'Show the version.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth check" version' -l 'version' -d 'Show the version.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'mockauth' -n '__mockauth_should_offer_completions_for_flags_or_options "mockauth help" version' -l 'version' -d 'Show the version.'
