"""Common English words that say nothing of what a paper is about: left out of the
recommendations' features (core.recommend.features) and of the words that find related papers
(core.flat.related), as scikit-learn's English stop words are, with a few of every abstract
("approach", "method", "paper", "propose")."""

_STOP_WORDS = """
    a about above across after afterwards again against all almost alone along already also
    although always am among amongst an and another any anyhow anyone anything anyway anywhere
    approach are around as at based be became because become becomes becoming been before
    beforehand behind being below beside besides between beyond both but by can cannot could did
    do does doing done down due during each eight either eleven else elsewhere enough etc even
    ever every everyone everything everywhere except few fifteen fifty first five for former
    formerly forty four from further had has have having he hence her here hereafter hereby herein
    hereupon hers herself him himself his how however hundred i if in indeed into is it its itself
    just last latter latterly least less many may me meanwhile method methods might mine more
    moreover most mostly much must my myself namely neither never nevertheless next nine no nobody
    none noone nor not nothing now nowhere of off often on once one only onto or other others
    otherwise our ours ourselves out over own paper per perhaps propose proposed rather same
    several shall she should show since six sixty so some somehow someone something sometime
    sometimes somewhere still such ten than that the their theirs them themselves then thence
    there thereafter thereby therefore therein thereupon these they third this those though three
    through throughout thru thus to together too toward towards twelve twenty two under until up
    upon us using very via was we well were what whatever when whence whenever where whereafter
    whereas whereby wherein whereupon wherever whether which while whither who whoever whole whom
    whose why will with within without would yet you your yours yourself yourselves
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())
