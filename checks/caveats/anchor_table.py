"""What ``checks.caveats.anchors`` reads off the rules' patterns, written down (its "written down" part).

Written by ``python tests/write_anchor_table.py``; never edit by hand. Each section holds the
``anchors.py`` it was written for (a SHA-256 of its bytes), the Pythons whose parser gives its answers, and the
answers, keyed by ``anchors.answer_key``.
"""

TABLE = [
    {
        'answers': {
            '007249e94305d47d05e640b8458474da': '(?=[aceilmopsw])',
            '03b28c7fc1717ecdf93e8c8844c174fb': False,
            '08ef4fa8c279e0f72d2dc361fcf51030': [
                [
                    'pattern',
                    (
                        'a(?<![^\\W_]a)(?:ccessib|dded|l(?:lows|ternat)|pproach|vailabl)|c(?<![^\\W_]c)(?:an|hanged'
                        '|o(?:n(?:figur|troll)|uld)|ustomi(?:s|z))|d(?<![^\\W_]d)(?:e(?:clared|fined)|isabled|one)|'
                        'e(?<![^\\W_]e)(?:asy|nable(?:d|s)|xpose(?:d|s))|i(?<![^\\W_]i)nstall(?:a|e)|l(?<![^\\W_]l)'
                        'ets|m(?<![^\\W_]m)(?:a(?:ke|naged|y)|ethod)|o(?<![^\\W_]o)(?:ffers|ption)|p(?<![^\\W_]p)(?'
                        ':ossible|rovide(?:d|s))|s(?<![^\\W_]s)(?:et|hould|imple|olution|pecifie)|w(?<![^\\W_]w)ay'
                    ),
                ],
                [
                    'pattern',
                    (
                        '(?:a(?:ccessib|dded|l(?:lows|ternat)|pproach|vailabl)|c(?:an|hanged|o(?:n(?:figur|troll)|u'
                        'ld)|ustomi(?:s|z))|d(?:e(?:clared|fined)|isabled|one)|e(?:asy|nable(?:d|s)|xpose(?:d|s))|i'
                        'nstall(?:a|e)|lets|m(?:a(?:ke|naged|y)|ethod)|o(?:ffers|ption)|p(?:ossible|rovide(?:d|s))|'
                        's(?:et|hould|imple|olution|pecifie)|way)'
                    ),
                ],
            ],
            '1ba6cf18ffb0748d1d9787ad91241a5e': '(?=[aeijls])',
            '2adc80a01e4adc8631f28430b4bac396': False,
            '39d772d2898118eeeea85083e32a124c': False,
            '3a3b1c076c4128bf206c989f86235268': [
                [
                    'pattern',
                    'f(?<![^\\W_]f)ree|skip',
                ],
                [
                    'pattern',
                    '(?:free|skip)',
                ],
            ],
            '460097ab99110556ddd20cdf9d9ebfd4': False,
            '487ae8196d665e91f766acb4a0dc9974': (
                "(?=(?:'ll|\\(|\\d|a(?:bor|cce|dd|llo|m|ppl|re|s|t|v(?:ai|oi))|b(?:e|igg|rok|ut|y)|c(?:a(?:ll|n|r(?"
                ':e|r)|u(?:s|t))|han|lie|o(?:me|ns|ul)|r(?:as|ea)|urr)|d(?:a(?:ng|ta)|e(?:ac|fa|gr|p(?:e|r)|ve)|i(?'
                ':d|s(?:a|p))|o|r(?:aw|op))|e(?:mit|nsu|x(?:ce|i(?:s|t)|p(?:e|o)))|f(?:a(?:il|r)|ew|rom)|g(?:et|ot)'
                '|h(?:a(?:d|rm|s|ve)|igh|owe|urt)|i(?:gno|mp(?:a|o)|n|rre|s|t)|k(?:eep|now)|l(?:ead|imi)|m(?:a(?:in'
                '|jo|ke|rk|y)|igh|u(?:ch|st|tu))|n(?:b|e(?:ed|ve|w)|o)|o(?:b(?:so|vi)|ffe|n(?:e|ly)|pen|the|ut|ver)'
                '|p(?:erm|o(?:ss|te)|r(?:er|i(?:m|n|o)|ov))|quit|r(?:ais|e(?:du|fu|je|m(?:a|e|o)|p(?:l|o)|qu|su|tu)'
                '|isk|oun)|s(?:e(?:cu|e|ve)|h(?:al|o(?:u|w))|i(?:gn|le|nc)|low|ome|t(?:ar|il|op)|u(?:b(?:j|s)|p(?:e'
                '|p)))|t(?:ake|erm|h(?:e|is|r(?:e|o))|o|wo)|u(?:n(?:av|de|le|s(?:a|t|u)|ti)|p|ser)|v(?:ali|uln)|w(?'
                ":a(?:rn|s)|e|i(?:ll|th)|o(?:n(?:'|’)|ul))|you|’ll))"
            ),
            '49a4ff2f708ed76b826248e6747c4a6d': False,
            '51399a0486fa83fb0fd9617d9288f031': '(?=[y])',
            '7257ecdcefec9aabc301eaeb9b38bcb3': '(?=[isuw])',
            '8471c6aa0780e7388950dd42b0e3b995': False,
            '98df9eb2698381041e0d64bf645ebcf1': '(?=[w])',
            'aeca68f54eb425d16d86c26aec8be307': False,
            'bb4367fac1bb60bea774482834ac6ab7': '(?=[dfkruw])',
            'c48fd9f518f6120122c00d8f427498d5': '(?=[cfms])',
            'c5df6fd6be9ecabf7824ae2e471561ee': '(?=[lw])',
            'c9309bd01db9f89b327385f5ce24d9cc': False,
            'd3d875928272b8290cbba1fdf891301f': [
                [
                    'pattern',
                    (
                        '(?<![^\\W_])(?:a(?:ble|cc(?:epted|ident|ount)|d(?:ded|versel)|ffect|l(?:lowed|pha)|pplicab'
                        '|ssume|ttentio|v(?:ailabl|oid)|ware)|b(?:ackward|e(?:ar|ta|ware)|r(?:eak|oken)|u(?:ilt|t))'
                        '|c(?:a(?:n|reful|u(?:s(?:e|ing)|tion))|o(?:m(?:ing|p(?:atib|ulso))|n(?:flict|sume|tribu)|r'
                        'rupt)|rash|urrentl)|d(?:a(?:nger|ta)|e(?:activa|fault|grade|p(?:end|recat)|signed|velopm)|'
                        'is(?:a(?:ble(?:d|s)|dvan)|tribu)|o(?:uble|wnside)|r(?:awback|opped))|e(?:ff(?:ect|ort)|n(?'
                        ':abled|ough|sure)|rror|ssentia|x(?:ce(?:pt|ssiv)|p(?:e(?:ct|nsiv|rime)|ose)))|f(?:ail|orbi'
                        'dde)|g(?:otcha|uarante)|h(?:a(?:d|ng|s|ve)|igher|owever)|i(?:gnore(?:d|s)|mp(?:act|lemen|o'
                        'rtan)|n(?:advert|c(?:luded|ompat|reas(?:e|i))|s(?:ecure|uffic)|t(?:e(?:nded|rfer)|roduc))|'
                        'rrevers)|keep|l(?:atency|ead|imit(?:ati|ed)|o(?:ng|s(?:e|t)))|m(?:a(?:ke|ndator|ximum)|ean'
                        't|inimum|u(?:st|tually))|n(?:b|e(?:cessar|ed|gative|ver)|o)|o(?:bsolete|ffered|n(?:ly|ward'
                        's)|therwis|ver(?:head|ridd|writ))|p(?:er(?:forma|mitte)|lanned|ossible|r(?:e(?:requi|sent|'
                        'view)|o(?:hibit|vided))|ublishe)|r(?:aise|e(?:ad|fuse(?:d|s)|ject(?:ed|s)|m(?:ember|oved)|'
                        'quir(?:e|in)|s(?:ponsi|ult))|isk|ound)|s(?:cope|e(?:riousl|verely)|h(?:ipped|ould)|ilently'
                        '|low|oon|t(?:a(?:ble|ll|rt)|uck)|u(?:b(?:ject|stitu)|fficie|p(?:ersed|porte)|re))|t(?:ake|'
                        'hrow|oo|urned)|un(?:availa|intent|less|mainta|s(?:afe|table|uppor))|v(?:alid|ersion|ulnera'
                        "b)|w(?:arning|ith(?:draw|out)|orking))|(?:\\d\\.\\d|n(?:'t|’t))"
                    ),
                ],
                [
                    'pattern',
                    (
                        '(?:\\d\\.\\d|a(?:ble|cc(?:epted|ident|ount)|d(?:ded|versel)|ffect|l(?:lowed|pha)|pplicab|s'
                        'sume|ttentio|v(?:ailabl|oid)|ware)|b(?:ackward|e(?:ar|ta|ware)|r(?:eak|oken)|u(?:ilt|t))|c'
                        '(?:a(?:n|reful|u(?:s(?:e|ing)|tion))|o(?:m(?:ing|p(?:atib|ulso))|n(?:flict|sume|tribu)|rru'
                        'pt)|rash|urrentl)|d(?:a(?:nger|ta)|e(?:activa|fault|grade|p(?:end|recat)|signed|velopm)|is'
                        '(?:a(?:ble(?:d|s)|dvan)|tribu)|o(?:uble|wnside)|r(?:awback|opped))|e(?:ff(?:ect|ort)|n(?:a'
                        'bled|ough|sure)|rror|ssentia|x(?:ce(?:pt|ssiv)|p(?:e(?:ct|nsiv|rime)|ose)))|f(?:ail|orbidd'
                        'e)|g(?:otcha|uarante)|h(?:a(?:d|ng|s|ve)|igher|owever)|i(?:gnore(?:d|s)|mp(?:act|lemen|ort'
                        'an)|n(?:advert|c(?:luded|ompat|reas(?:e|i))|s(?:ecure|uffic)|t(?:e(?:nded|rfer)|roduc))|rr'
                        'evers)|keep|l(?:atency|ead|imit(?:ati|ed)|o(?:ng|s(?:e|t)))|m(?:a(?:ke|ndator|ximum)|eant|'
                        "inimum|u(?:st|tually))|n(?:'t|b|e(?:cessar|ed|gative|ver)|o|’t)|o(?:bsolete|ffered|n(?:ly|"
                        'wards)|therwis|ver(?:head|ridd|writ))|p(?:er(?:forma|mitte)|lanned|ossible|r(?:e(?:requi|s'
                        'ent|view)|o(?:hibit|vided))|ublishe)|r(?:aise|e(?:ad|fuse(?:d|s)|ject(?:ed|s)|m(?:ember|ov'
                        'ed)|quir(?:e|in)|s(?:ponsi|ult))|isk|ound)|s(?:cope|e(?:riousl|verely)|h(?:ipped|ould)|ile'
                        'ntly|low|oon|t(?:a(?:ble|ll|rt)|uck)|u(?:b(?:ject|stitu)|fficie|p(?:ersed|porte)|re))|t(?:'
                        'ake|hrow|oo|urned)|un(?:availa|intent|less|mainta|s(?:afe|table|uppor))|v(?:alid|ersion|ul'
                        'nerab)|w(?:arning|ith(?:draw|out)|orking))'
                    ),
                ],
            ],
            'dd77b01bf05cf68d5c0f0254395e16dc': '(?=[t])',
            'df12be25af0a004cf48b73b614e97deb': False,
            'e71a8d7f28abaab029e7a8fe6feeb067': True,
            'ebd154bb43f328ebaf61ca64420c5ea3': [
                [
                    'pattern',
                    (
                        'a(?<![^\\W_]a)dvis(?:abl|e)|b(?<![^\\W_]b)e(?:st|tter)|e(?<![^\\W_]e)ncourag|g(?<![^\\W_]g'
                        ')ood|l(?<![^\\W_]l)ikely|p(?<![^\\W_]p)r(?:efer(?:ab|re)|obably)|r(?<![^\\W_]r)ecommen|s(?'
                        '<![^\\W_]s)u(?:ggest|itable)'
                    ),
                ],
                [
                    'pattern',
                    (
                        '(?:advis(?:abl|e)|be(?:st|tter)|encourag|good|likely|pr(?:efer(?:ab|re)|obably)|recommen|s'
                        'u(?:ggest|itable))'
                    ),
                ],
            ],
            'f1fe247e72a100db531e445fb562d767': '(?=[Iabilpw])',
            'f4400578fceba49c85414bb4e6c98e37': False,
            'f4ecd0357b1f1d7be864565736f8baf4': '(?=[iuw])',
            'f5a1577a01d2f84484829630172d3c06': False,
            'fcf83330bff6a66ab6d33c7710553c3c': '(?=[\\*<\\[\\]_\\{\\~])',
        },
        'code': '0b837a8e7abde6e7a24f24a9c42f2f1438ff4e25dc890364e72eda306825cdf9',
        'pythons': [
            '3.10',
            '3.11',
            '3.12',
            '3.13',
        ],
    },
]
