function __compliancectl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __compliancectl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __compliancectl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __compliancectl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __compliancectl_parse_tokens -S
    set -l unparsed_tokens (__compliancectl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'compliancectl'
        __compliancectl_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'status'
            __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'version' 'h/help'
        case 'accounts'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'version' 'h/help'
        case 'sign-in'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'password-stdin' 'cancel' 'silent' 'scope=+' 'browser' 'no-open' 'timeout=' 'device-code' 'grant=' 'version' 'h/help'
        case 'token'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'password-stdin' 'cancel' 'scope=+' 'interactive' 'no-remediate' 'print-token' 'version' 'h/help'
        case 'remediate'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'password-stdin' 'cancel' 'silent' 'version' 'h/help'
        case 'deregister'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'wipe' 'version' 'h/help'
        case 'data'
            __compliancectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'put'
                __compliancectl_parse_subcommand 2 'socket=' 'state-dir=' 'json' 'text=' 'file=' 'version' 'h/help'
            case 'get'
                __compliancectl_parse_subcommand 2 'socket=' 'state-dir=' 'json' 'o/output=' 'version' 'h/help'
            case 'list'
                __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            case 'rm'
                __compliancectl_parse_subcommand 2 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            end
        case 'events'
            __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'since=' 'f/follow' 'version' 'h/help'
        case 'explain'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'mock=' 'no-mock' 'version' 'h/help'
        case 'clock'
            __compliancectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            case 'advance'
                __compliancectl_parse_subcommand -r 1 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            end
        case 'run'
            __compliancectl_parse_subcommand -r 1 'authority=' 'oidc-issuer=' 'client-id=' 'client-secret-file=' 'client-auth=' 'param=+' 'mam-url=' 'socket=' 'ca-file=' 'j/jobs=' 'mockauth=' 'complianced=' 'keep-state' 'json' 'v/verbose' 'version' 'h/help'
        case 'data-protection'
            __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'owner=' 'scheme=' 'known-managed-app-scheme' 'version' 'h/help'
        case 'config'
            __compliancectl_parse_subcommand 2 'socket=' 'state-dir=' 'json' 'query=' 'version' 'h/help'
        case 'identity'
            __compliancectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            case 'ui'
                __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'cancel' 'version' 'h/help'
            case 'process'
                __compliancectl_parse_subcommand 1 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            end
        case 'settings'
            __compliancectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'version' 'h/help'
            case 'override'
                __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'authority=' 'client-id=' 'redirect-uri=' 'version' 'h/help'
            case 'clear'
                __compliancectl_parse_subcommand 0 'socket=' 'state-dir=' 'json' 'authority' 'client-id' 'redirect-uri' 'version' 'h/help'
            end
        case 'profile'
            __compliancectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'lint'
                __compliancectl_parse_subcommand 1 'entitlements=' 'json' 'version' 'h/help'
            case 'fix'
                __compliancectl_parse_subcommand 1 'entitlements=' 'o/output=' 'json' 'version' 'h/help'
            end
        case 'webview'
            __compliancectl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'decide'
                __compliancectl_parse_subcommand 0 'app=' 'entitlements=' 'view-policy=' 'ui-identity=' 'account=' 'url=' 'frame=' 'internal-url=+' 'internal-prefix=+' 'internal-host=+' 'managed-browser-policy' 'limits-navigations' 'api=+' 'api-first' 'json' 'version' 'h/help'
            end
        case 'browser'
            __compliancectl_parse_subcommand 0 'os=' 'version=' 'webview-type=' 'app=' 'app-initiated' 'json' 'version' 'h/help'
        case 'help'
            __compliancectl_parse_subcommand -r 1 'version'
        end
    end
end

function __compliancectl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __compliancectl_parse_subcommand -S -a positional_count
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

function __compliancectl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __compliancectl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__compliancectl_tokens -p)
    if test -z "$(__compliancectl_tokens -t)"
        set -l index (count (__compliancectl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'compliancectl' -f
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'status' -d 'Show whether the daemon runs, its app (registered, allowed and managed accounts), its clock and its accounts.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'accounts' -d 'List the accounts the daemon knows (sign-in, management, compliance, enrollment, wipe, files).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'sign-in' -d 'Sign an account in: allowed-accounts check, a token (remediating on 53005), then MAM registration.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'token' -d 'Acquire an access token for an account; a 53005 answer starts remediation unless --no-remediate.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'remediate' -d 'Remediate an account (MAM token, enroll, apply policy, report compliance) and print its one report.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'deregister' -d 'Unenroll an account from the MAM service (104), and selectively wipe its data with --wipe.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'data' -d 'Store, read, list and remove an account\'s managed files (encrypted when the policy requires it).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'events' -d 'Print the daemon\'s event log (one line per event; --json: one JSON object per line).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'explain' -d 'Tell an account\'s compliance story: each 53005, remediation, enrollment and policy status, wipe; and why it loops.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'clock' -d 'Show the daemon\'s clock, or advance its virtual clock (firing due retries and check-ins in order).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'run' -d 'Run end-to-end flows (flows/README.md) against mockauth and complianced.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'data-protection' -d 'Show what an account\'s app protection policy allows (IntuneMAMPolicy\'s data-protection checks).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'config' -d 'Show an account\'s MAM app configuration (IntuneMAMAppConfig), or one key\'s values.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'identity' -d 'Show or set the app\'s process and UI identities (setProcessIdentity, setUIPolicyIdentity).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'settings' -d 'Show the app\'s Entra settings in force, or override them at runtime (IntuneMAMSettings).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'profile' -d 'Lint or fix an app profile: its Info.plist (IntuneMAMSettings, query schemes, WKAppBoundDomains) and entitlements.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'webview' -d 'Decide what the Intune SDK and WebKit do with a web view of an app.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'browser' -d 'Print the web view MSAL signs in with on an iOS or macOS version, its cookie sharing and SSO, and the Intune findings.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl status" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl status" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl status" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl status" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl accounts" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl accounts" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl accounts" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl accounts" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl accounts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" password-stdin' -l 'password-stdin' -d 'Read the account\'s password from the first line of standard input.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" cancel' -l 'cancel' -d 'Play a user who cancels the sign-in page (for testing UserCancelled).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" silent' -l 'silent' -d 'Never show the sign-in page (cached or refreshed tokens only).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in"' -l 'scope' -d 'Scope to request (repeatable; default: the daemon\'s sign-in scopes).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" browser' -l 'browser' -d 'Sign in in a browser (authorization code + PKCE, loopback redirect).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" no-open' -l 'no-open' -d 'With --browser: print the URL only, do not run xdg-open.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" timeout' -l 'timeout' -d 'With --browser: seconds to wait for the browser\'s redirect (1...3600, default 300).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" device-code' -l 'device-code' -d 'Sign in on another device with a code (RFC 8628).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" grant' -l 'grant' -d '\'password\': use the password grant (test issuers) instead of the sign-in page.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl sign-in" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" password-stdin' -l 'password-stdin' -d 'Read the account\'s password from the first line of standard input.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" cancel' -l 'cancel' -d 'Play a user who cancels the sign-in page (for testing UserCancelled).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token"' -l 'scope' -d 'Scope to request (repeatable, at least one).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" interactive' -l 'interactive' -d 'Allow the sign-in page (default: silent).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" no-remediate' -l 'no-remediate' -d 'Report 53005 instead of remediating.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" print-token' -l 'print-token' -d 'Print only the access token.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" password-stdin' -l 'password-stdin' -d 'Read the account\'s password from the first line of standard input.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" cancel' -l 'cancel' -d 'Play a user who cancels the sign-in page (for testing UserCancelled).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" silent' -l 'silent' -d 'Never show the sign-in page.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl remediate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl deregister" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl deregister" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl deregister" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl deregister" wipe' -l 'wipe' -d 'Also wipe the account\'s files, tokens and enrollment.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl deregister" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl deregister" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl data" -eq 1' -fa 'put' -d 'Store a file for an account (from --text, --file or standard input).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl data" -eq 1' -fa 'get' -d 'Write an account\'s file to standard output (or -o FILE).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl data" -eq 1' -fa 'list' -d 'List an account\'s files.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl data" -eq 1' -fa 'rm' -d 'Remove an account\'s file.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" text' -l 'text' -d 'The content as text.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" file' -l 'file' -d 'Read the content from this file.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data put" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data get" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data get" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data get" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data get" o output' -l 'output' -s 'o' -d 'Write to this file instead.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data get" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data list" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data list" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data list" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data list" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data rm" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data rm" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data rm" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data rm" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" since' -l 'since' -d 'Only events after this sequence number.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" f follow' -l 'follow' -s 'f' -d 'Keep waiting for new events until interrupted, or until the reader of a piped output goes away (| head).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl events" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" mock' -l 'mock' -d 'A mockauth base URL whose request log to read (default: the daemon\'s issuer when it is on loopback).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" no-mock' -l 'no-mock' -d 'Do not read a mock\'s request log.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl explain" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl clock" -eq 1' -fa 'show' -d 'Show the clock\'s mode and time.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl clock" -eq 1' -fa 'advance' -d 'Move the virtual clock forward (daemon started with --clock virtual).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock show" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock show" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock show" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock show" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock advance" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock advance" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock advance" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock advance" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl clock advance" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" authority' -l 'authority' -d 'An issuer to use instead of starting mockauth.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" oidc-issuer' -l 'oidc-issuer' -d 'Any OpenID Connect issuer to run the flows against (no mock, no admin API).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" client-id' -l 'client-id' -d 'The started daemon\'s client id at the issuer.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" client-secret-file' -l 'client-secret-file' -d 'The started daemon\'s client secret file (owner-only).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" client-auth' -l 'client-auth' -d 'basic or post (with --client-secret-file).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run"' -l 'param' -d 'Fill the flows\' ${NAME} with VALUE (repeatable).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" mam-url' -l 'mam-url' -d 'Its MAM service (default: the authority\'s origin + /mam/v1; none for --oidc-issuer).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" socket' -l 'socket' -d 'A running complianced\'s control socket to use instead of starting one.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" ca-file' -l 'ca-file' -d 'CA file the daemon trusts for an https authority.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" j jobs' -l 'jobs' -s 'j' -d 'Flows run at once (own mock and daemon each).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" mockauth' -l 'mockauth' -d 'The mockauth executable (default: next to compliancectl, then PATH).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" complianced' -l 'complianced' -d 'The complianced executable (default: next to compliancectl, then PATH).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" keep-state' -l 'keep-state' -d 'Keep each flow\'s daemon state directory.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" json' -l 'json' -d 'Print a JSON report instead of progress and a table.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" v verbose' -l 'verbose' -s 'v' -d 'Also print each flow\'s description and each step\'s note.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" owner' -l 'owner' -d 'The account owning the location or the shared item.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" scheme' -l 'scheme' -d 'Also answer isURLAllowed for a URL of this scheme.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" known-managed-app-scheme' -l 'known-managed-app-scheme' -d 'The --scheme belongs to a known managed app.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl data-protection" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl config" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl config" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl config" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl config" query' -l 'query' -d 'Which value of several: any, min, max, or, and (default any).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl config" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl identity" -eq 1' -fa 'show' -d 'Show the process, UI and effective UI identities.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl identity" -eq 1' -fa 'ui' -d 'Switch the UI identity (setUIPolicyIdentity); exits 1 unless the result is Success.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl identity" -eq 1' -fa 'process' -d 'Set the process identity (setProcessIdentity); refused for an identity the policy does not allow.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity show" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity show" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity show" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity show" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity ui" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity ui" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity ui" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity ui" cancel' -l 'cancel' -d 'The user cancels the conditional launch (the PIN prompt) if one is shown.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity ui" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity ui" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity process" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity process" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity process" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity process" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl identity process" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl settings" -eq 1' -fa 'show' -d 'Show the settings in force and the overrides.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl settings" -eq 1' -fa 'override' -d 'Set runtime overrides (the others stay as they are).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl settings" -eq 1' -fa 'clear' -d 'Clear runtime overrides (all of them when none is named).'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings show" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings show" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings show" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings show" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" authority' -l 'authority' -d 'aadAuthorityUriOverride: the authority\'s URL.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" client-id' -l 'client-id' -d 'aadClientIdOverride.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" redirect-uri' -l 'redirect-uri' -d 'aadRedirectUriOverride.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings override" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" socket' -l 'socket' -d 'The daemon\'s control socket (default: $COMPLIANCED_SOCKET).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" state-dir' -l 'state-dir' -d 'The daemon\'s state directory (its socket is DIR/control.sock).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" json' -l 'json' -d 'Print the daemon\'s JSON answer instead of text.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" authority' -l 'authority' -d 'Clear aadAuthorityUriOverride.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" client-id' -l 'client-id' -d 'Clear aadClientIdOverride.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" redirect-uri' -l 'redirect-uri' -d 'Clear aadRedirectUriOverride.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl settings clear" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl profile" -eq 1' -fa 'lint' -d 'Print every problem of an app profile with its key and how to fix it.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl profile" -eq 1' -fa 'fix' -d 'Apply the mechanical fixes to an app profile; print what was fixed and what remains.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile lint" entitlements' -l 'entitlements' -d 'The app\'s entitlements file (an XML property list).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile lint" json' -l 'json' -d 'Print a JSON report instead of lines.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile lint" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile lint" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile fix" entitlements' -l 'entitlements' -d 'The app\'s entitlements file (an XML property list).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile fix" o output' -s 'o' -l 'output' -d 'Write the fixed Info.plist here instead of in place.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile fix" json' -l 'json' -d 'Print a JSON report instead of lines.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile fix" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl profile fix" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_positional "compliancectl webview" -eq 1' -fa 'decide' -d 'Print a web view\'s cut/copy/paste identity, what happens to a navigation, and the App-Bound Domains outcome.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" app' -l 'app' -d 'The app\'s Info.plist.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" entitlements' -l 'entitlements' -d 'The app\'s entitlements (for com.apple.developer.web-browser).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" view-policy' -l 'view-policy' -d 'unset, unmanaged or currentIdentity.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" ui-identity' -l 'ui-identity' -d 'The current UI policy identity: managed, unmanaged or none.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" account' -l 'account' -d 'The UI identity\'s account (default: user@contoso.com).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" url' -l 'url' -d 'The URL the web view navigates to.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" frame' -l 'frame' -d 'top or iframe.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide"' -l 'internal-url' -d 'A URL the delegate calls internal (repeatable).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide"' -l 'internal-prefix' -d 'A URL prefix the delegate calls internal (repeatable).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide"' -l 'internal-host' -d 'A host (and its subdomains) the delegate calls internal (repeatable).' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" managed-browser-policy' -l 'managed-browser-policy' -d 'The app protection policy opens external links in the managed browser.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" limits-navigations' -l 'limits-navigations' -d 'The view sets limitsNavigationsToAppBoundDomains.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide"' -l 'api' -d 'A restricted API the app calls (repeatable): evaluateJavaScript, addUserScript, userStyleSheet, messageHandlers, setCookie, getAllCookies.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" api-first' -l 'api-first' -d 'Call the --api APIs before the navigation instead of after it.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" json' -l 'json' -d 'Print JSON instead of lines.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl webview decide" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" os' -l 'os' -d 'ios or macos.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" version' -l 'version' -d 'The OS version, e.g. 12.4 or 10.15.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" webview-type' -l 'webview-type' -d 'MSALWebviewType: default, authSession (authenticationSession), safariViewController, wkWebView.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" app' -l 'app' -d 'The app\'s Info.plist: apply the Intune SDK\'s rules.' -rfka ''
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" app-initiated' -l 'app-initiated' -d 'The app starts the sign-in itself (not the Intune SDK\'s enrollment). Needs --app.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" json' -l 'json' -d 'Print JSON instead of lines.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" version' -l 'version' -d 'Show the version.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl browser" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'compliancectl' -n '__compliancectl_should_offer_completions_for_flags_or_options "compliancectl help" version' -l 'version' -d 'Show the version.'
